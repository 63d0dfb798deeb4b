// The web UI's hosts page, contributed by the devices app (io.heliograph.devices.internal.rest.HostsPage,
// served at /ui/pages/hosts.js): every host the controller tracks, with its MAC, VLAN, addresses, where
// it is attached (a link to the switch's page) and when it was last seen.
//
// The search box and the paging run on the controller (/api/v1/hosts?search=...&offset=...&limit=...):
// the browser holds one page of hosts however many there are, so the page stays quick with tens of
// thousands. #/hosts/<text> opens the page searching for <text>. Live 'host' events, and 'open' (the
// event stream reconnected: something may have been missed), reload the page shown, at most once a
// second; without events the Refresh button does.

import { el } from '/ui/dom.js';
import { DataTable } from '/ui/table.js';

const PAGE_SIZE = 100;
const TYPING_DELAY_MS = 250;
const EVENT_DELAY_MS = 1000;
const STYLE = `
.hg-hosts-tools { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5em; margin: 0.4em 0; }
.hg-hosts-search { min-width: 22em; padding: 0.25em 0.5em; }
.hg-hosts .hg-host-age { margin-left: 0.4em; }
`;

export async function render(element, api, rest) {
  addStyle();
  let offset = 0;
  let latest = 0;      // the number of the last query sent: an older query's late answer is dropped
  let typing = null;
  let eventTimer = null;

  const search = el('input', {
    type: 'search', class: 'hg-hosts-search', value: rest || '', 'aria-label': 'Search hosts by MAC or IP address',
    placeholder: 'MAC or IP address, or a part of one',
    oninput: () => {
      clearTimeout(typing);
      typing = setTimeout(() => { offset = 0; load(); }, TYPING_DELAY_MS);
    },
    onkeydown: (e) => {
      if (e.key === 'Enter') { clearTimeout(typing); offset = 0; load(); }
    },
  });
  const previous = el('button', { type: 'button', class: 'hg-hosts-previous',
    onclick: () => { offset = Math.max(0, offset - PAGE_SIZE); load(); } }, '‹ Previous');
  const next = el('button', { type: 'button', class: 'hg-hosts-next',
    onclick: () => { offset += PAGE_SIZE; load(); } }, 'Next ›');
  const refresh = el('button', { type: 'button', class: 'hg-hosts-refresh', onclick: () => load() }, 'Refresh');
  const status = el('span', { class: 'hint hg-hosts-status', role: 'status' });
  const error = el('p', { class: 'error hg-hosts-error', role: 'alert' });

  // The search above runs on the controller over every host; the table's own filter would only see
  // the page in the browser, so it is not offered.
  const table = new DataTable([
    { key: 'mac', title: 'MAC' },
    { key: 'vlan', title: 'VLAN', numeric: true, text: (h) => (h.vlan === 0 ? 'untagged' : h.vlan) },
    { key: 'ip', title: 'IP addresses', text: (h) => [...h.ipv4, ...h.ipv6].join(', ') },
    { key: 'attachment', title: 'Attached at', text: attachmentText, cell: attachmentCell },
    { key: 'lastSeen', title: 'Last seen', text: (h) => seenText(h.lastSeen), value: (h) => h.lastSeen,
      cell: (h) => [seenText(h.lastSeen), el('span', { class: 'hint hg-host-age' }, age(h.lastSeen))] },
  ], { empty: 'No hosts', rowKey: (h) => h.mac + '/' + h.vlan, filter: false });
  table.count.hidden = true;

  const root = el('div', { class: 'hg-hosts' },
    el('h1', {}, 'Hosts'),
    el('div', { class: 'hg-hosts-tools' }, search, refresh, previous, next, status),
    error, table.element);
  element.append(root);

  async function load() {
    const mine = ++latest;
    const text = search.value.trim();
    const query = new URLSearchParams({ offset: String(offset), limit: String(PAGE_SIZE) });
    if (text) query.set('search', text);
    let page;
    try {
      page = await api.get('/api/v1/hosts?' + query);
    } catch (e) {
      if (mine === latest) error.textContent = 'Cannot list the hosts: ' + e.message;
      return;
    }
    if (mine !== latest) return;
    if (page.hosts.length === 0 && offset > 0 && page.total > 0) {
      // hosts left while this page was open: show the last page there is
      offset = Math.floor((page.total - 1) / PAGE_SIZE) * PAGE_SIZE;
      return load();
    }
    error.textContent = '';
    table.setRows(page.hosts);
    previous.disabled = offset === 0;
    next.disabled = offset + page.hosts.length >= page.total;
    status.textContent = summary(page, text);
    root.dataset.search = text;     // what the rows shown answer, for whoever watches the page
    root.dataset.total = String(page.total);
  }

  const soon = () => {
    if (eventTimer) return;
    eventTimer = setTimeout(() => { eventTimer = null; if (root.isConnected) load(); }, EVENT_DELAY_MS);
  };
  if (api.events) {
    api.events.on('host', soon);
    api.events.on('open', soon);
  }
  await load();
}

function summary(page, text) {
  const matching = text ? ` matching “${text}”` : '';
  if (page.total === 0) return text ? `No host matches “${text}”` : 'No hosts seen yet';
  if (page.total <= page.hosts.length) return `${page.total} host${page.total === 1 ? '' : 's'}${matching}`;
  const n = (x) => x.toLocaleString('en-US');
  return `Hosts ${n(page.offset + 1)}–${n(page.offset + page.hosts.length)} of ${n(page.total)}${matching}`;
}

function attachmentText(host) {
  return host.attachmentPoints.map((p) => `${p.dpid} port ${p.port}`).join(', ');
}

function attachmentCell(host) {
  const cells = [];
  host.attachmentPoints.forEach((p, i) => {
    if (i > 0) cells.push(el('br'));
    cells.push(el('a', { href: '#/switches/' + p.dpid, class: 'hg-host-switch' }, p.dpid), ` port ${p.port}`);
  });
  return cells;
}

/** An ISO-8601 instant as date and time to the second, in UTC like the API. */
function seenText(instant) {
  return instant ? instant.replace('T', ' ').replace(/\.\d+/, '').replace('Z', ' UTC') : '';
}

function age(instant) {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(instant)) / 1000));
  if (Number.isNaN(seconds)) return '';
  if (seconds < 120) return `(${seconds} s ago)`;
  if (seconds < 7200) return `(${Math.round(seconds / 60)} min ago)`;
  return `(${Math.round(seconds / 3600)} h ago)`;
}

function addStyle() {
  if (document.adoptedStyleSheets.some((s) => s.heliographPage === 'hosts')) return;
  const sheet = new CSSStyleSheet();
  sheet.heliographPage = 'hosts';
  sheet.replaceSync(STYLE);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
