// The web UI's page of __NAME__ (__PACKAGE__.rest.__CLASS__Page): the packet-ins counted per switch,
// from GET /api/v1/__NAME__. The UI calls render(element, api) when the operator opens the page;
// api.get sends the operator's credentials.

import { el } from '/ui/dom.js';

export async function render(element, api) {
  const counts = await api.get('/api/v1/__NAME__');
  const rows = Object.entries(counts.switches).map(([dpid, n]) =>
    el('tr', {}, el('td', {}, dpid), el('td', {}, String(n))));
  element.replaceChildren(
    el('h2', {}, '__NAME__'),
    el('p', {}, `${counts.total} packet-ins counted`),
    el('table', {}, el('thead', {}, el('tr', {}, el('th', {}, 'Switch'), el('th', {}, 'Packet-ins'))),
      el('tbody', {}, ...rows)));
}
