// #/switches: every connected switch, one row each, filtered and sorted in a DataTable; a row opens
// the switch. Reloaded on the controller's live switch events (and when the event stream reconnects),
// and by the Refresh button, so it works the same when no events arrive.

import { el } from '/ui/dom.js';
import { DataTable } from '/ui/table.js';
import { switchAddress } from '/ui/switches/paths.js';
import { StatusBar } from '/ui/switches/status-bar.js';
import { age, clockNow, localTime } from '/ui/switches/format.js';
import { debounced } from '/ui/switches/refresh.js';

const description = (field) => (s) => (s.description ? s.description[field] : '');

const COLUMNS = [
  { key: 'dpid', title: 'Datapath id', cell: (s) => el('a', { href: switchAddress(s.dpid) }, s.dpid) },
  { key: 'address', title: 'Address' },
  { key: 'version', title: 'OpenFlow' },
  { key: 'manufacturer', title: 'Manufacturer', text: description('manufacturer') },
  { key: 'hardware', title: 'Hardware', text: description('hardware') },
  { key: 'software', title: 'Software', text: description('software') },
  { key: 'datapath', title: 'Description', text: description('datapath') },
  { key: 'ports', title: 'Ports', numeric: true },
  { key: 'connectedSince', title: 'Connected since', text: (s) => localTime(s.connectedSince),
    cell: (s) => el('span', { title: s.connectedSince ? age((Date.now() - Date.parse(s.connectedSince)) / 1000) + ' ago' : '' },
      localTime(s.connectedSince)) },
];

export async function renderSwitchList(element, api) {
  const table = new DataTable(COLUMNS, { filterLabel: 'Filter switches', empty: 'No switch is connected',
    rowKey: (s) => s.dpid });
  table.element.classList.add('hg-switch-list');
  // the whole row opens the switch, not only its dpid's link
  table.body.addEventListener('click', (event) => {
    const row = event.target.closest('tr[data-key]');
    if (row && !event.target.closest('a')) location.hash = switchAddress(row.dataset.key);
  });
  let latest = 0;
  const load = async () => {
    const asked = ++latest;
    try {
      const switches = await api.get('/api/v1/switches');
      if (asked !== latest) return; // a later load answers for now
      table.setRows(switches);
      status.ok(`${switches.length} connected · read at ${clockNow()}`);
    } catch (e) {
      if (asked === latest) status.failed('Cannot list the switches: ' + e.message);
    }
  };
  const status = new StatusBar(load);
  const reload = debounced(load, 300);
  api.events.on('switch', reload);
  api.events.on('open', reload);
  element.append(el('h1', {}, 'Switches'), status.element, table.element);
  await load();
}
