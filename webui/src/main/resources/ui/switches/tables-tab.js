// A switch's flow tables and their counters (/api/v1/switches/<dpid>/tables). Open vSwitch reports
// 254 tables of which a pipeline uses a few, so tables with no entry and no lookup are left out
// unless the operator asks for them.

import { el } from '/ui/dom.js';
import { switchApi } from '/ui/switches/paths.js';
import { count } from '/ui/switches/format.js';
import { renderCountedList } from '/ui/switches/counted-list.js';

const COLUMNS = [
  { key: 'tableId', title: 'Table', numeric: true },
  { key: 'activeCount', title: 'Entries', numeric: true, text: (t) => count(t.activeCount) },
  { key: 'lookupCount', title: 'Lookups', numeric: true, text: (t) => count(t.lookupCount) },
  { key: 'matchedCount', title: 'Matched', numeric: true, text: (t) => count(t.matchedCount) },
  { key: 'hitRatio', title: 'Matched %', numeric: true, value: hitRatio,
    text: (t) => (t.lookupCount > 0 ? (100 * hitRatio(t)).toFixed(1) + ' %' : '') },
];

function hitRatio(t) {
  return t.lookupCount > 0 ? t.matchedCount / t.lookupCount : 0;
}

const inUse = (t) => t.activeCount > 0 || t.lookupCount > 0;

export async function renderTables(element, api, sw) {
  let list = null;
  const showAll = el('input', { type: 'checkbox', class: 'hg-all-tables', onchange: () => list && list.redraw() });
  list = await renderCountedList(element, api, {
    path: switchApi(sw.dpid, '/tables'), what: 'tables', columns: COLUMNS, rowKey: (t) => String(t.tableId),
    className: 'hg-tables',
    shown: (tables) => (showAll.checked ? tables : tables.filter(inUse)),
    describe: (rows, all) => `${all.length} tables, ${all.filter(inUse).length} in use`
      + (showAll.checked ? '' : ' (unused ones hidden)'),
    controls: [el('label', { class: 'hg-control' }, showAll, ' Show unused tables')],
  });
}
