// The cluster page's masterships: one row per switch (its master, the master's generation id, the
// candidates) with a "Move to" choice of the other candidates and a button that moves the mastership
// (PUT /api/v1/cluster/masterships/<dpid>), and a Rebalance button above the table. What became of
// the last move is said in its row (until the switch moves on); of a rebalance, beside its button.
// The table is redrawn only when what it shows changed, and not while the operator is choosing in
// one of its lists.

import { el } from '/ui/dom.js';
import { DataTable } from '/ui/table.js';
import { switchAddress } from '/ui/switches/paths.js';

const encode = (dpid) => encodeURIComponent(dpid).replace(/%3A/gi, ':');
const masteryPath = (dpid) => '/api/v1/cluster/masterships/' + encode(dpid);
const NONE = 'No instance of the cluster is connected to a switch';
const UNKNOWN = 'The masterships cannot be read now';

export class MastershipTable {
  /** refresh() reads the whole page again, after a change. */
  constructor(api, refresh) {
    this.api = api;
    this.refresh = refresh;
    this.rows = [];
    this.local = null;
    this.busy = new Set();      // the switches being moved
    this.chosen = new Map();    // dpid -> the instance chosen in its row, kept across redraws
    this.outcome = null;        // { dpid, master, text, error }: the last move, said in its row
    this.drawn = null;
    this.table = new DataTable([
      { key: 'dpid', title: 'Switch', cell: (m) => el('a', { href: switchAddress(m.dpid) }, m.dpid),
        value: (m) => m.dpid },
      { key: 'master', title: 'Master', text: (m) => m.master || 'none', cell: (m) => this.master(m) },
      { key: 'generation', title: 'Generation', numeric: true },
      { key: 'candidates', title: 'Candidates', text: (m) => m.candidates.join(', ') },
      { key: 'move', title: 'Move to', text: () => '', value: () => 0, cell: (m) => this.moveControl(m) },
    ], { filterLabel: 'Filter switches', empty: NONE, rowKey: (m) => m.dpid });
    this.table.element.classList.add('hg-masterships');
    this.element = this.table.element;

    this.rebalanceButton = el('button', { type: 'button', 'data-action': 'rebalance',
      onclick: () => this.rebalance() }, 'Rebalance');
    this.rebalanceNote = el('span', { class: 'hint hg-rebalance-note', role: 'status' });
    this.toolbar = el('div', { class: 'hg-toolbar' }, this.rebalanceButton, this.rebalanceNote);
  }

  /** What GET /api/v1/cluster says: which instance this is. */
  know(cluster) {
    this.local = cluster.local;
  }

  /** The masterships of GET /api/v1/cluster/masterships; null when they cannot be read (the page says why). */
  show(masterships) {
    this.rows = masterships || [];
    this.table.empty = masterships ? NONE : UNKNOWN;
    // a move's success is said while it holds: not once the switch has moved on (a fail-over, another move)
    const moved = this.outcome && !this.outcome.error && this.rows.find((m) => m.dpid === this.outcome.dpid);
    if (moved && this.outcome.master && moved.master !== this.outcome.master) this.outcome = null;
    this.draw();
  }

  draw(force = false) {
    // a redraw would close a list the operator has open: the next look draws it
    if (!force && this.element.contains(document.activeElement) && document.activeElement.tagName === 'SELECT') return;
    const drawn = JSON.stringify([this.rows, this.table.empty, this.local, [...this.busy], this.outcome]);
    if (!force && drawn === this.drawn) return;
    this.drawn = drawn;
    this.table.setRows(this.rows);
  }

  master(m) {
    if (!m.master) return el('span', { class: 'hg-no-master', title: 'a fail-over is under way' }, 'none');
    return el('span', {}, el('span', { class: 'hg-master-id' }, m.master),
      m.master === this.local ? el('span', { class: 'hg-local' }, 'this instance') : null);
  }

  moveControl(m) {
    const others = m.candidates.filter((c) => c !== m.master);
    const note = this.outcome && this.outcome.dpid === m.dpid
      ? el('div', { class: (this.outcome.error ? 'error' : 'hint') + ' hg-row-outcome', role: 'status' }, this.outcome.text)
      : null;
    if (!others.length) {
      return el('div', {}, el('span', { class: 'hint' }, 'no other instance is connected to it'), note);
    }
    const kept = others.includes(this.chosen.get(m.dpid)) ? this.chosen.get(m.dpid) : others[0];
    const busy = this.busy.has(m.dpid);
    const select = el('select', { class: 'hg-move-target', 'aria-label': `instance to become master of ${m.dpid}`,
      disabled: busy, onchange: () => this.chosen.set(m.dpid, select.value) },
    others.map((c) => el('option', { value: c, '.selected': c === kept }, c)));
    const button = el('button', { type: 'button', 'data-action': 'move', disabled: busy,
      'aria-label': `Move the mastership of ${m.dpid}`, onclick: () => this.move(m.dpid, select.value) }, 'Move');
    return el('div', {}, el('span', { class: 'hg-move' }, select, button), note);
  }

  async move(dpid, master) {
    this.busy.add(dpid);
    this.outcome = { dpid, text: `Moving to ${master}…`, error: false };
    this.draw(true);
    try {
      const moved = await this.api.put(masteryPath(dpid), { master });
      this.outcome = { dpid, master: moved.master, text: `${moved.master} is master now (generation ${moved.generation}).`,
        error: false };
      this.chosen.delete(dpid);
    } catch (e) {
      this.outcome = { dpid, text: `Cannot move it to ${master}: ${e.message}`, error: true };
    } finally {
      this.busy.delete(dpid);
    }
    this.draw(true);
    await this.refresh();
  }

  async rebalance() {
    this.rebalanceButton.disabled = true;
    this.say('Rebalancing…', false);
    try {
      const masterships = await this.api.post('/api/v1/cluster/rebalance');
      const counts = new Map();
      for (const m of masterships) if (m.master) counts.set(m.master, (counts.get(m.master) || 0) + 1);
      const spread = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([i, n]) => `${i} ${n}`).join(', ');
      this.say(`Rebalanced: ${masterships.length} switches${spread ? ' (' + spread + ')' : ''}.`, false);
      this.outcome = null;
      this.show(masterships);
    } catch (e) {
      this.say('Cannot rebalance: ' + e.message, true);
    } finally {
      this.rebalanceButton.disabled = false;
    }
    await this.refresh();
  }

  say(text, error) {
    this.rebalanceNote.textContent = text;
    this.rebalanceNote.className = (error ? 'error' : 'hint') + ' hg-rebalance-note';
  }
}
