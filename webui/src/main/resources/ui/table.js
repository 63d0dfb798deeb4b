// A table of records that the operator can filter (one text box, matching any shown column) and sort
// (click a column's header; again to reverse). Pages give it columns and replace its rows when data
// arrives; filter and sort survive the update.
//
//   const t = new DataTable([{ key: 'mac', title: 'MAC' }, { key: 'port', title: 'Port', numeric: true }],
//                           { filterLabel: 'Search', empty: 'No hosts' });
//   element.append(t.element); t.setRows(records);
//
// A column may give text(record) for what is shown and matched, and value(record) for sorting; with
// { filter: false } the table shows no filter box (for a page that searches on the server).

import { el } from '/ui/dom.js';

export class DataTable {
  constructor(columns, { filterLabel = 'Filter', empty = 'Nothing to show', rowKey, filter = true } = {}) {
    this.columns = columns;
    this.rows = [];
    this.sortKey = null;
    this.descending = false;
    this.empty = empty;
    this.rowKey = rowKey;
    this.filterBox = el('input', { type: 'search', class: 'hg-filter', placeholder: filterLabel, 'aria-label': filterLabel,
      oninput: () => this.draw() });
    // Without filter, the page searches itself (on the server, say): the box is not shown.
    this.filterBox.hidden = !filter;
    this.count = el('span', { class: 'hint hg-count' });
    this.head = el('tr', {}, columns.map((c) => el('th', { 'data-key': c.key, class: 'hg-sortable', onclick: () => this.sortBy(c.key) }, c.title)));
    this.body = el('tbody');
    this.element = el('div', { class: 'hg-table' }, el('div', { class: 'hg-table-tools' }, this.filterBox, ' ', this.count),
      el('table', {}, el('thead', {}, this.head), this.body));
  }

  setRows(rows) {
    this.rows = rows;
    this.draw();
  }

  /** Filters by text as if the operator had typed it. */
  filter(text) {
    this.filterBox.value = text;
    this.draw();
  }

  sortBy(key) {
    this.descending = this.sortKey === key ? !this.descending : false;
    this.sortKey = key;
    this.draw();
  }

  text(column, record) {
    const v = column.text ? column.text(record) : record[column.key];
    return v === undefined || v === null ? '' : String(v);
  }

  value(column, record) {
    if (column.value) return column.value(record);
    const v = record[column.key];
    return column.numeric ? Number(v) : this.text(column, record).toLowerCase();
  }

  draw() {
    const needle = this.filterBox.value.trim().toLowerCase();
    let shown = needle
      ? this.rows.filter((r) => this.columns.some((c) => this.text(c, r).toLowerCase().includes(needle)))
      : [...this.rows];
    const column = this.columns.find((c) => c.key === this.sortKey);
    if (column) {
      const sign = this.descending ? -1 : 1;
      shown.sort((a, b) => {
        const x = this.value(column, a);
        const y = this.value(column, b);
        return (x < y ? -1 : x > y ? 1 : 0) * sign;
      });
    }
    for (const th of this.head.children) {
      th.classList.toggle('hg-sorted', th.dataset.key === this.sortKey);
      th.classList.toggle('hg-descending', th.dataset.key === this.sortKey && this.descending);
    }
    this.count.textContent = needle ? `${shown.length} of ${this.rows.length}` : `${this.rows.length}`;
    if (!shown.length) {
      this.body.replaceChildren(el('tr', {}, el('td', { colspan: this.columns.length, class: 'hint' }, this.empty)));
      return;
    }
    this.body.replaceChildren(...shown.map((r) => el('tr', this.rowKey ? { 'data-key': this.rowKey(r) } : {},
      this.columns.map((c) => el('td', c.numeric ? { class: 'hg-number' } : {}, c.cell ? c.cell(r) : this.text(c, r))))));
  }
}
