// The cluster page's instances: one row per live instance, sorted by id, this one marked; how many
// switches each is master of, and for this instance whether its ZooKeeper session is up.

import { el } from '/ui/dom.js';
import { DataTable } from '/ui/table.js';
import { age, localTime } from '/ui/switches/format.js';

const COLUMNS = [
  { key: 'id', title: 'Instance', cell: (i) => el('span', {}, el('span', { class: 'hg-instance-id' }, i.id),
    i.local ? el('span', { class: 'hg-local' }, 'this instance') : null) },
  { key: 'openflowAddress', title: 'OpenFlow address' },
  { key: 'httpAddress', title: 'HTTP address' },
  { key: 'version', title: 'Version' },
  { key: 'started', title: 'Started', text: (i) => localTime(i.started),
    cell: (i) => el('span', { title: i.started ? age((Date.now() - Date.parse(i.started)) / 1000) + ' ago' : '' },
      localTime(i.started)) },
  { key: 'connected', title: 'ZooKeeper', text: (i) => (i.connected ? 'connected' : 'no session'),
    cell: (i) => el('span', { class: i.connected ? 'hg-up' : 'hg-down' }, i.connected ? 'connected' : 'no session') },
  { key: 'masterOf', title: 'Master of', numeric: true,
    text: (i) => (i.masterOf === null || i.masterOf === undefined ? '—' : i.masterOf) },
];

export class InstanceTable {
  constructor() {
    this.table = new DataTable(COLUMNS, { filterLabel: 'Filter instances', rowKey: (i) => i.id });
    this.table.element.classList.add('hg-instances');
    this.element = this.table.element;
    this.drawn = null;
  }

  /**
   * The instances of GET /api/v1/cluster; null when it cannot be read (the page says why). The other
   * instances listed hold a session (the cluster lists live ones only); this one is listed also while
   * its own session is down.
   */
  show(cluster) {
    const rows = cluster ? cluster.instances.map((i) => ({ ...i, connected: !i.local || cluster.connected })) : [];
    this.table.empty = cluster ? 'No instance is known' : 'The instances cannot be read now';
    // redrawn only when something changed: the operator's sort stays as it is
    const drawn = JSON.stringify([rows, this.table.empty]);
    if (drawn === this.drawn) return;
    this.drawn = drawn;
    this.table.setRows(rows);
  }
}
