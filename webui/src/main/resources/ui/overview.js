// The overview, the page an operator lands on: is the controller healthy, how big is the network it
// sees (switches; links and hosts while their apps run, each a link to its page), how busy it is
// (PACKET_IN received, FLOW_MOD sent and all OpenFlow messages received per second, drawn over the last
// minutes), what changed lately
// (the live events since login), and the controller's details in a table below.
//
// Rates are the difference of the message counters of /api/v1/controller (messages.dispatched, received
// from switches; messages.sent, written to them) between two reads (every
// 2 s, and 300 ms after a switch, link or host event). The history of rates and of events belongs to
// the shell, so coming back to the overview shows what was already seen.

import { el, stylesheet } from '/ui/dom.js';
import { age, localTime } from '/ui/switches/format.js';

const OVERVIEW_MS = 2000;
const HISTORY = 150; // reads kept for the chart: five minutes at one read every 2 s
const GAP_MS = 10000; // reads further apart than this (the operator was elsewhere) start a new line
const RECENT = 12;
const SERIES = [
  { key: 'packetIn', name: 'PACKET_IN/s', colour: '#e8772e' },
  { key: 'flowMod', name: 'FLOW_MOD sent/s', colour: '#3b9b57' },
  { key: 'all', name: 'all messages/s', colour: '#2a7ab0' },
];

/** Rates computed from successive reads of the controller's counters, oldest first. */
const rates = { samples: [], previous: null };

/** What the live events said since login, newest first; the shell feeds it. */
export class RecentEvents {
  constructor() {
    this.list = [];
    this.listeners = new Set();
  }

  add(type, e) {
    const text = describe(type, e);
    if (text === null) return;
    this.list.unshift({ at: new Date(), type, text });
    this.list.length = Math.min(this.list.length, RECENT);
    for (const listener of this.listeners) listener();
  }
}

function describe(type, e) {
  if (!e || typeof e !== 'object') return null;
  if (type === 'switch') {
    if (e.action === 'changed') {
      return e.port ? `Switch ${e.dpid} port ${e.port.name || e.port.id}: ${e.portChange || 'changed'}` : null;
    }
    return `Switch ${e.dpid} ${e.action === 'added' ? 'connected' : e.action === 'removed' ? 'disconnected' : e.action}`;
  }
  if (type === 'link' && e.src && e.dst) {
    return `Link ${e.src.dpid} port ${e.src.port} → ${e.dst.dpid} port ${e.dst.port} ${e.action}`;
  }
  if (type === 'host') {
    const ips = e.host ? [...(e.host.ipv4 || []), ...(e.host.ipv6 || [])] : [];
    return `Host ${e.mac}${ips.length ? ' (' + ips[0] + ')' : ''} ${e.action}`;
  }
  return null;
}

async function optional(api, path) {
  try { return await api.get(path); } catch (e) { return null; } // the app serving it is stopped
}

/** Records a read of the controller's counters; returns each type's rate since the previous read, or null. */
function record(c) {
  const now = performance.now();
  const counts = c.messages ? c.messages.dispatched : {};
  const sent = (c.messages && c.messages.sent) || {};
  const previous = rates.previous;
  rates.previous = { at: now, counts, sent };
  if (!previous || now - previous.at > GAP_MS) {
    if (previous) rates.samples.push(null); // a gap in the line
    return null;
  }
  const perSecond = (n, before) => Math.max(0, (n - (before ?? n)) * 1000 / (now - previous.at));
  const byType = {};
  for (const [type, n] of Object.entries(counts)) byType[type] = perSecond(n, previous.counts[type]);
  const sample = {
    packetIn: byType.PACKET_IN || 0,
    flowMod: sent.FLOW_MOD === undefined ? 0 : perSecond(sent.FLOW_MOD, previous.sent.FLOW_MOD ?? 0),
    all: Object.values(byType).reduce((sum, r) => sum + r, 0),
    byType,
  };
  rates.samples.push(sample);
  while (rates.samples.length > HISTORY) rates.samples.shift();
  return sample;
}

const NS = 'http://www.w3.org/2000/svg';

/** A line chart of the rates: one polyline per series, scaled to the highest value shown. */
function chart(samples, width = 640, height = 140) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('class', 'hg-rate-chart');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.dataset.points = String(samples.filter((s) => s).length);
  const top = Math.max(1, ...samples.filter((s) => s).flatMap((s) => SERIES.map((series) => s[series.key])));
  const step = width / Math.max(1, HISTORY - 1);
  const start = HISTORY - samples.length;
  for (const series of SERIES) {
    let points = [];
    const flush = () => {
      if (points.length > 1) {
        const line = document.createElementNS(NS, 'polyline');
        line.setAttribute('points', points.join(' '));
        line.setAttribute('stroke', series.colour);
        svg.append(line);
      }
      points = [];
    };
    samples.forEach((s, i) => {
      if (!s) { flush(); return; }
      const y = height - 2 - (s[series.key] / top) * (height - 6);
      points.push(`${((start + i) * step).toFixed(1)},${y.toFixed(1)}`);
    });
    flush();
  }
  return { svg, top };
}

const rate = (n) => (n >= 100 ? Math.round(n).toLocaleString() : n.toFixed(1));

/** Renders the overview into element; api is the shell's, recent its RecentEvents. */
export async function renderOverview(element, api, recent) {
  stylesheet('/ui/overview.css');
  const health = el('p', { class: 'hg-overview-health' });
  const tiles = el('div', { class: 'hg-tiles' });
  const chartBox = el('div', { class: 'hg-chart-box' });
  const legend = el('p', { class: 'hg-chart-legend' });
  const eventList = el('ol', { class: 'hg-recent-events' });
  const table = el('table', { class: 'hg-overview-details' });

  const tile = (key, count, label, href, note) => el('a', { class: 'hg-tile', href, 'data-key': key },
    el('span', { class: 'hg-tile-count' }, String(count)), el('span', { class: 'hg-tile-label' }, label),
    note ? el('span', { class: 'hint hg-tile-note' }, note) : null);

  const showEvents = () => {
    eventList.replaceChildren(...(recent.list.length === 0
      ? [el('li', { class: 'hint' }, 'No switch, link or host has changed since you logged in.')]
      : recent.list.map((e) => el('li', { 'data-type': e.type },
        el('time', { datetime: e.at.toISOString() }, localTime(e.at.toISOString()).slice(11)), ' ', e.text))));
  };

  const show = async () => {
    const [c, up, topology, hosts] = await Promise.all([api.get('/api/v1/controller'),
      optional(api, '/api/v1/health'), optional(api, '/api/v1/topology'), optional(api, '/api/v1/hosts?limit=1')]);
    const latest = record(c);
    const healthy = up && up.status === 'UP';
    health.replaceChildren(
      el('span', { class: 'hg-health ' + (healthy ? 'hg-health-up' : 'hg-health-down') }, healthy ? 'Healthy' : 'Not ready'),
      ` Heliograph ${c.version} · instance `, el('span', { class: 'hg-instance-id' }, c.instanceId),
      ` · up ${age(c.uptimeSeconds)}`);
    tiles.replaceChildren(
      tile('switches', c.switches < 0 ? '—' : c.switches, 'switches', '#/switches',
        c.switches < 0 ? 'OpenFlow not running' : null),
      tile('links', topology ? topology.links / 2 : '—', 'links', '#/topology', topology ? null : 'topology app not running'),
      tile('hosts', hosts ? hosts.total : '—', 'hosts', '#/hosts', hosts ? null : 'devices app not running'));
    const drawn = chart(rates.samples);
    chartBox.replaceChildren(drawn.svg, el('span', { class: 'hg-chart-top' }, rate(drawn.top) + '/s'));
    legend.replaceChildren(...SERIES.map((s) => el('span', { class: 'hg-chart-key', style: `--colour: ${s.colour}` },
      s.name + ' ', el('strong', { 'data-key': s.key }, latest ? rate(latest[s.key]) : '…'))),
    el('span', { class: 'hint' }, ' over the last few minutes'));

    // the same rows and values as before the tiles came (scripts and tests read them by data-key)
    const rows = [
      ['Version', c.version], ['Instance', c.instanceId], ['Up since', c.started],
      ['Switches', c.switches < 0 ? 'OpenFlow not running' : c.switches],
      ['Links', topology ? topology.links / 2 + ' cables (' + topology.links + ' directed links)' : 'topology app not running'],
      ['Hosts', hosts ? hosts.total : 'devices app not running'],
      ['Heap used', Math.round(c.memory.heapUsed / 1048576) + ' MiB'], ['Threads', c.threads],
    ];
    for (const [type, n] of Object.entries(c.messages ? c.messages.dispatched : {})) {
      const perSecond = latest ? latest.byType[type] : undefined;
      rows.push([type + ' messages', n + (perSecond === undefined ? '' : ', ' + Math.round(perSecond) + '/s')]);
    }
    for (const [type, n] of Object.entries(c.messages && c.messages.sent ? c.messages.sent : {})) {
      const perSecond = latest && type === 'FLOW_MOD' ? latest.flowMod : undefined;
      rows.push([type + ' sent', n + (perSecond === undefined ? '' : ', ' + Math.round(perSecond) + '/s')]);
    }
    table.replaceChildren(...rows.map(([k, v]) => el('tr', { 'data-key': k }, el('th', {}, k), el('td', {}, String(v)))));
  };
  await show();
  showEvents();
  const listener = () => { if (eventList.isConnected) showEvents(); else recent.listeners.delete(listener); };
  recent.listeners.add(listener);
  element.append(el('h1', {}, 'Overview'), health, tiles,
    el('h2', {}, 'OpenFlow messages'), legend, chartBox,
    el('h2', {}, 'Recent changes'), eventList,
    el('h2', {}, 'Controller'), table);

  // One timer: the next look is in 2 s, or in 300 ms after an event (a burst of events makes one look).
  let pending = null;
  let due = Infinity;
  const soon = (delay = 300) => {
    if (pending && due <= performance.now() + delay) return;
    clearTimeout(pending);
    due = performance.now() + delay;
    pending = setTimeout(() => {
      pending = null;
      due = Infinity;
      if (!table.isConnected) return; // the operator left the page
      show().catch(() => { /* the next look shows it */ }).finally(() => soon(OVERVIEW_MS));
    }, delay);
  };
  soon(OVERVIEW_MS);
  for (const type of ['switch', 'link', 'host', 'open']) {
    api.events.on(type, (e) => { if (!(type === 'switch' && e.action === 'changed')) soon(); });
  }
}
