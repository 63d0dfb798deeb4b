// A switch's ports with their live rates. Three sources, joined by port number:
//   /api/v1/switches/<dpid>/ports            what the controller keeps: name, address, state, speed
//   /api/v1/switches/<dpid>/statistics       the port counters, asked of the switch: errors and drops
//   /api/v1/stats/switches/<dpid>/ports      the statistics app's rates, computed where it polls
// The table is read again at the app's poll interval (learned from the instants of its samples), and
// each port keeps a short history of its traffic for a sparkline, seeded from the app's recent history.
// Without the statistics app the ports and counters still show, with a note saying why there are no rates.

import { el, bytes } from '/ui/dom.js';
import { DataTable } from '/ui/table.js';
import { statsApi, switchApi } from '/ui/switches/paths.js';
import { StatusBar } from '/ui/switches/status-bar.js';
import { byteRate, clockNow, count, localTime, packetRate, speed, unsignedPort } from '/ui/switches/format.js';
import { keepFresh } from '/ui/switches/refresh.js';
import { askStatistics, pollInterval, refreshPeriod } from '/ui/switches/statistics.js';
import { sparkline } from '/ui/switches/sparkline.js';

const HISTORY_POINTS = 60;
/** Ports whose history is asked for one by one when the tab opens; a bigger switch starts its lines empty. */
const HISTORY_PORTS = 128;
/** The app's history endpoint takes physical port numbers only (not LOCAL and the other reserved ones). */
const LAST_PHYSICAL_PORT = 0xffffff00;

const rate = (r, field) => (r.rate ? r.rate[field] : null);
const counter = (r, field) => (r.counters ? r.counters[field] : null);

const COLUMNS = [
  { key: 'number', title: 'Port', numeric: true, text: (p) => p.id },
  { key: 'name', title: 'Name' },
  { key: 'hwAddress', title: 'MAC' },
  { key: 'up', title: 'State', text: (p) => (p.up ? 'up' : 'down'),
    cell: (p) => el('span', { class: p.up ? 'hg-up' : 'hg-down', title: [...p.config, ...p.state].join(', ') }, p.up ? 'up' : 'down') },
  { key: 'speed', title: 'Speed', text: (p) => speed(p.currentSpeedKbps), value: (p) => p.currentSpeedKbps || 0 },
  { key: 'rxBytesPerSecond', title: 'Rx/s', numeric: true, text: (p) => byteRate(rate(p, 'rxBitsPerSecond')),
    value: (p) => rate(p, 'rxBitsPerSecond') ?? -1 },
  { key: 'txBytesPerSecond', title: 'Tx/s', numeric: true, text: (p) => byteRate(rate(p, 'txBitsPerSecond')),
    value: (p) => rate(p, 'txBitsPerSecond') ?? -1 },
  { key: 'rxPacketsPerSecond', title: 'Rx pkt/s', numeric: true, text: (p) => packetRate(rate(p, 'rxPacketsPerSecond')),
    value: (p) => rate(p, 'rxPacketsPerSecond') ?? -1 },
  { key: 'txPacketsPerSecond', title: 'Tx pkt/s', numeric: true, text: (p) => packetRate(rate(p, 'txPacketsPerSecond')),
    value: (p) => rate(p, 'txPacketsPerSecond') ?? -1 },
  { key: 'rxBytes', title: 'Rx bytes', numeric: true, text: (p) => bytes(counter(p, 'rxBytes')), value: (p) => counter(p, 'rxBytes') ?? -1 },
  { key: 'txBytes', title: 'Tx bytes', numeric: true, text: (p) => bytes(counter(p, 'txBytes')), value: (p) => counter(p, 'txBytes') ?? -1 },
  { key: 'errors', title: 'Errors rx/tx', numeric: true, value: (p) => (counter(p, 'rxErrors') ?? 0) + (counter(p, 'txErrors') ?? 0),
    text: (p) => (p.counters ? count(p.counters.rxErrors) + ' / ' + count(p.counters.txErrors) : '') },
  { key: 'drops', title: 'Drops rx/tx', numeric: true, value: (p) => (counter(p, 'rxDropped') ?? 0) + (counter(p, 'txDropped') ?? 0),
    text: (p) => (p.counters ? count(p.counters.rxDropped) + ' / ' + count(p.counters.txDropped) : '') },
  { key: 'history', title: 'Traffic', text: () => '', value: (p) => p.history.length,
    cell: (p) => sparkline(p.history.map((s) => (s.rx + s.tx) / 8), (v) => bytes(v, '/s')) },
];

export async function renderPorts(element, api, sw) {
  const note = el('p', { class: 'hint hg-rates-note' });
  const table = new DataTable(COLUMNS, { filterLabel: 'Filter ports', empty: 'The switch reports no ports',
    rowKey: (p) => String(p.number) });
  table.element.classList.add('hg-ports');
  const histories = new Map(); // port number -> [{ at, rx, tx }], oldest first
  let intervalMs = null;
  let seeded = false;

  const load = async () => {
    const [ports, statistics, rates] = await Promise.all([
      api.get(switchApi(sw.dpid, '/ports')).catch((e) => ({ failed: e })),
      api.get(switchApi(sw.dpid, '/statistics')).catch((e) => ({ failed: e })),
      askStatistics(api, statsApi(sw.dpid, '/ports')),
    ]);
    if (ports.failed) {
      status.failed('Cannot read the ports: ' + ports.failed.message);
      return;
    }
    const ratesByPort = new Map((rates.rates || []).map((r) => [unsignedPort(r.port), r]));
    if (rates.rates && !seeded) {
      seeded = true;
      await seedHistories(api, sw.dpid, [...ratesByPort.keys()], histories);
    }
    for (const [port, r] of ratesByPort) remember(histories, port, r);
    intervalMs = pollInterval([...histories.values()].flatMap((h) => h.map((s) => s.at))) || intervalMs;
    const countersByPort = new Map(statistics.failed ? [] : statistics.ports.map((c) => [c.port, c]));
    table.setRows(ports.map((p) => ({ ...p, rate: ratesByPort.get(p.number) || null,
      counters: countersByPort.get(p.number) || null, history: histories.get(p.number) || [] })));
    note.textContent = rates.absent ? rates.why : ratesNote(rates.rates, intervalMs);
    note.classList.toggle('hg-no-rates', Boolean(rates.absent));
    const problems = statistics.failed ? ' · no counters: ' + statistics.failed.message : '';
    (statistics.failed ? status.failed : status.ok).call(status, `${ports.length} ports · read at ${clockNow()}${problems}`);
  };
  const refresh = keepFresh(element, load, () => refreshPeriod(intervalMs));
  const status = new StatusBar(refresh);
  element.append(status.element, note, table.element);
  await refresh();
}

function ratesNote(rates, intervalMs) {
  if (!rates.length) return 'The statistics app has polled this switch once: rates appear after its next poll.';
  const last = rates.map((r) => r.at).sort().pop();
  const every = intervalMs ? `every ${Math.round(intervalMs / 100) / 10} s` : 'periodically';
  return `Rates from the statistics app, which polls the switch ${every}; latest interval ended ${localTime(last)}.`;
}

/** Each port's recent rates from the app, asked once when the tab opens. */
async function seedHistories(api, dpid, ports, histories) {
  const physical = ports.filter((p) => p >= 1 && p <= LAST_PHYSICAL_PORT).slice(0, HISTORY_PORTS);
  await Promise.all(physical.map(async (port) => {
    try {
      const h = await api.get(statsApi(dpid, '/ports/' + port));
      for (const r of h.history) remember(histories, port, r);
    } catch (e) {
      // no history for this port: its line starts with the next reading
    }
  }));
}

/** Adds a reading to a port's history unless it is the same interval as the last one. */
function remember(histories, port, r) {
  const h = histories.get(port) || [];
  if (h.length && Date.parse(h[h.length - 1].at) >= Date.parse(r.at)) return;
  h.push({ at: r.at, rx: r.rxBitsPerSecond, tx: r.txBitsPerSecond });
  if (h.length > HISTORY_POINTS) h.splice(0, h.length - HISTORY_POINTS);
  histories.set(port, h);
}
