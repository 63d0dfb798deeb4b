// The tabs that show one list a switch answers with (tables, groups, meters): a status bar, an
// optional note, a DataTable, read when the tab opens and again every so often. A switch whose
// OpenFlow version lacks the feature is told apart from a failure: the API answers 409 with a
// sentence saying so, and the tab shows that sentence as a note instead of an error.

import { el } from '/ui/dom.js';
import { DataTable } from '/ui/table.js';
import { StatusBar } from '/ui/switches/status-bar.js';
import { clockNow } from '/ui/switches/format.js';
import { keepFresh } from '/ui/switches/refresh.js';

const REFRESH_MS = 10000;

/**
 * Shows what path answers in a table of columns. what names the items ("groups"); shown(rows) may
 * leave some out (and say so in the status); controls are extra elements for the toolbar.
 */
/** "1 group", "2 groups". */
export function counted(n, what) {
  return n + ' ' + (n === 1 ? what.replace(/s$/, '') : what);
}

export async function renderCountedList(element, api, { path, what, columns, rowKey, className,
  shown = (rows) => rows, describe = (rows, all) => counted(all.length, what), controls = [] }) {
  const unsupported = el('p', { class: 'hint hg-unsupported', hidden: true });
  const table = new DataTable(columns, { filterLabel: 'Filter ' + what, empty: 'No ' + what, rowKey });
  table.element.classList.add(className);
  let all = [];
  const draw = () => {
    const rows = shown(all);
    table.setRows(rows);
    return rows;
  };
  const load = async () => {
    try {
      all = await api.get(path);
    } catch (e) {
      if (e.status === 409) {
        unsupported.textContent = e.message;
        unsupported.hidden = false;
        table.element.hidden = true;
        status.ok('No ' + what + ' on this switch');
      } else {
        status.failed(`Cannot read the ${what}: ${e.message}`);
      }
      return;
    }
    const rows = draw();
    status.ok(`${describe(rows, all)} · read at ${clockNow()}`);
  };
  const refresh = keepFresh(element, load, () => REFRESH_MS);
  const status = new StatusBar(refresh);
  status.element.append(...controls);
  element.append(status.element, unsupported, table.element);
  await refresh();
  return { redraw: () => { const rows = draw(); status.ok(`${describe(rows, all)} · read at ${clockNow()}`); } };
}
