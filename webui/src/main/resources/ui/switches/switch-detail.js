// #/switches/<dpid>[/<tab>]: one switch. A header with what the controller keeps of it (version,
// address, connected since, description, features) and the controller's role on it, asked of the
// switch; then one tab, each at its own address so that it can be linked to: ports (with live rates),
// flows, tables, groups, meters. A switch that is not connected is said to be so, with the API's reason.

import { el } from '/ui/dom.js';
import { switchAddress, switchApi } from '/ui/switches/paths.js';
import { age, localTime } from '/ui/switches/format.js';
import { debounced } from '/ui/switches/refresh.js';
import { renderPorts } from '/ui/switches/ports-tab.js';
import { renderFlows } from '/ui/switches/flows-tab.js';
import { renderTables } from '/ui/switches/tables-tab.js';
import { renderGroups } from '/ui/switches/groups-tab.js';
import { renderMeters } from '/ui/switches/meters-tab.js';

const TABS = [
  { id: 'ports', title: 'Ports', render: renderPorts },
  { id: 'flows', title: 'Flows', render: renderFlows },
  { id: 'tables', title: 'Tables', render: renderTables },
  { id: 'groups', title: 'Groups', render: renderGroups },
  { id: 'meters', title: 'Meters', render: renderMeters },
];

export async function renderSwitch(element, api, dpid, tabId) {
  const back = el('p', { class: 'hg-back' }, el('a', { href: '#/switches' }, '← All switches'));
  let sw;
  try {
    sw = await api.get(switchApi(dpid));
  } catch (e) {
    if (e.status !== 400 && e.status !== 404) throw e;
    element.append(back, el('h1', {}, 'No switch ' + dpid),
      el('p', { class: 'error hg-no-switch', role: 'alert' }, e.message));
    return;
  }
  const tab = TABS.find((t) => t.id === (tabId || 'ports'));
  const gone = el('p', { class: 'error hg-switch-gone', role: 'alert', hidden: true });
  const tabs = el('div', { class: 'hg-tabs', role: 'tablist' }, TABS.map((t) => el('a', {
    href: switchAddress(sw.dpid, t.id), role: 'tab', 'data-tab': t.id,
    class: t === tab ? 'active' : '', 'aria-selected': t === tab ? 'true' : 'false' }, t.title)));
  const body = el('section', { class: 'hg-tab-body', 'data-tab': tab ? tab.id : tabId });
  element.append(back, header(api, sw), gone, tabs, body);

  // the switch may leave while the operator looks at it: say so rather than show errors in the tabs
  const check = debounced(async () => {
    try {
      await api.get(switchApi(sw.dpid));
      gone.hidden = true;
    } catch (e) {
      gone.textContent = 'This switch is no longer connected: ' + e.message;
      gone.hidden = false;
    }
  });
  api.events.on('switch', check);
  api.events.on('open', check);

  if (!tab) {
    body.append(el('p', { class: 'error' }, `A switch has no tab '${tabId}'; its tabs are `
      + TABS.map((t) => t.id).join(', ') + '.'));
    return;
  }
  await tab.render(body, api, sw);
}

function header(api, sw) {
  const d = sw.description || {};
  const f = sw.features || {};
  const since = sw.connectedSince ? localTime(sw.connectedSince) + ' (' + age((Date.now() - sw.connectedSinceMillis) / 1000) + ' ago)' : '';
  const role = el('span', { class: 'hg-role' }, 'asking…');
  const rows = [
    ['OpenFlow', sw.version], ['Address', sw.address], ['Connected since', since], ['Role', role],
    ['Manufacturer', d.manufacturer], ['Hardware', d.hardware], ['Software', d.software],
    ['Serial number', d.serialNumber], ['Datapath', d.datapath], ['Tables', f.tables], ['Buffers', f.buffers],
    ['Capabilities', (f.capabilities || []).join(', ')],
  ];
  showRole(api, sw, role);
  return el('div', { class: 'hg-switch-header' },
    el('h1', {}, 'Switch ', el('span', { class: 'hg-dpid' }, sw.dpid)),
    el('dl', {}, rows.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v === undefined || v === null ? '' : v)])));
}

/** What a switch answers when no controller has set a generation id yet (2^64 - 1). */
const NO_GENERATION = '18446744073709551615';

/** The role is asked of the switch (a ROLE_REQUEST that changes nothing), so it fills in when it comes. */
async function showRole(api, sw, into) {
  try {
    const r = await api.get(switchApi(sw.dpid, '/role'));
    const generation = r.generationId && r.generationId !== '0' && r.generationId !== NO_GENERATION;
    into.textContent = r.role + (generation ? ' (generation ' + r.generationId + ')' : '');
  } catch (e) {
    into.textContent = e.status === 409 ? 'no roles before OpenFlow 1.2' : 'unknown: ' + e.message;
    into.classList.add('hint');
  }
}
