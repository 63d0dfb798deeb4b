// A switch's flow entries, asked of the switch (/api/v1/switches/<dpid>/flows): table, priority,
// cookie, match, instructions, counters, age and timeouts, filtered and sorted by the operator. When
// the statistics app runs, each entry's latest rate is joined in (same table, priority, cookie and
// match), and the table is read again at the app's poll interval; otherwise every few seconds.

import { el, bytes } from '/ui/dom.js';
import { DataTable } from '/ui/table.js';
import { statsApi, switchApi } from '/ui/switches/paths.js';
import { StatusBar } from '/ui/switches/status-bar.js';
import { age, byteRate, clockNow, cookieValue, count, instructionsText, matchText, packetRate } from '/ui/switches/format.js';
import { keepFresh } from '/ui/switches/refresh.js';
import { askStatistics, pollInterval, refreshPeriod } from '/ui/switches/statistics.js';

/** Reading every flow is a request to the switch: not more often than this, whatever the app's interval. */
const SLOWEST_SWITCH_READ_MS = 5000;

const COLUMNS = [
  { key: 'tableId', title: 'Table', numeric: true },
  { key: 'priority', title: 'Priority', numeric: true },
  { key: 'cookie', title: 'Cookie', value: (f) => cookieValue(f.cookie) },
  { key: 'match', title: 'Match', text: (f) => matchText(f.match) },
  { key: 'instructions', title: 'Instructions', text: (f) => instructionsText(f.instructions) },
  { key: 'packets', title: 'Packets', numeric: true, text: (f) => count(f.packets) },
  { key: 'bytes', title: 'Bytes', numeric: true, text: (f) => count(f.bytes) },
  { key: 'rate', title: 'Rate', numeric: true, text: (f) => (f.rate ? byteRate(f.rate.bitsPerSecond) : '—'),
    value: (f) => (f.rate ? f.rate.bitsPerSecond : -1) },
  { key: 'packetRate', title: 'pkt/s', numeric: true, text: (f) => (f.rate ? packetRate(f.rate.packetsPerSecond) : '—'),
    value: (f) => (f.rate ? f.rate.packetsPerSecond : -1) },
  { key: 'durationSeconds', title: 'Age', numeric: true, text: (f) => age(f.durationSeconds) },
  { key: 'timeouts', title: 'Idle/hard timeout', text: (f) => f.idleTimeout + ' / ' + f.hardTimeout,
    value: (f) => f.idleTimeout * 65536 + f.hardTimeout },
];

/** Table, priority, cookie and match: what tells one entry from another, the same from both sources. */
function flowKey(tableId, priority, cookie, match) {
  const fields = Object.entries(match || {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [tableId, priority, cookieValue(cookie).toString(), JSON.stringify(fields)].join('|');
}

export async function renderFlows(element, api, sw) {
  const note = el('p', { class: 'hint hg-rates-note' });
  const table = new DataTable(COLUMNS, { filterLabel: 'Filter flows',
    empty: 'No flow entries', rowKey: (f) => flowKey(f.tableId, f.priority, f.cookie, f.match) });
  table.element.classList.add('hg-flows');
  let intervalMs = null;
  let askedHistory = false;

  const load = async () => {
    // the first read asks for the rates' history too, only to learn how often the app polls
    const history = askedHistory ? '' : '?history=true';
    const [flows, rates] = await Promise.all([
      api.get(switchApi(sw.dpid, '/flows')).catch((e) => ({ failed: e })),
      askStatistics(api, statsApi(sw.dpid, '/flows' + history)),
    ]);
    if (rates.rates && !askedHistory) {
      askedHistory = true;
      intervalMs = pollInterval(rates.rates.flatMap((r) => [r.at, ...(r.history || []).map((s) => s.at)]));
    }
    if (flows.failed) {
      status.failed('Cannot read the flows: ' + flows.failed.message);
      return;
    }
    const ratesByKey = new Map((rates.rates || []).map((r) => [flowKey(r.table, r.priority, r.cookie, r.match), r]));
    table.setRows(flows.map((f) => ({ ...f, rate: ratesByKey.get(flowKey(f.tableId, f.priority, f.cookie, f.match)) || null })));
    note.textContent = rates.absent ? rates.why : 'Rates from the statistics app; a dash until it has seen an entry in two polls.';
    note.classList.toggle('hg-no-rates', Boolean(rates.absent));
    const packets = flows.reduce((n, f) => n + (f.packets || 0), 0);
    const octets = flows.reduce((n, f) => n + (f.bytes || 0), 0);
    status.ok(`${flows.length} flows · ${count(packets)} packets, ${bytes(octets)} · read at ${clockNow()}`);
  };
  const refresh = keepFresh(element, load, () => Math.max(SLOWEST_SWITCH_READ_MS, refreshPeriod(intervalMs)));
  const status = new StatusBar(refresh);
  element.append(status.element, note, table.element);
  await refresh();
}
