// Optimisations of one experiment: start one (an engine algorithm, a seed, a time limit), follow its
// progress while it is queued or running, and for a finished one compare its plan with the measured
// placement: the minimax link utilisation before and after, the VM moves, and each link's predicted
// utilisation before and after as paired bars (PMs' CPU likewise), which the topology can show too.
// "Mark executed" tells the controller the plan was applied: the experiment's EDF becomes the plan's.

import { el } from '/ui/dom.js';
import { DataTable } from '/ui/table.js';
import { UTILISATION_COLOURS, utilisationBand } from '/ui/topology/scene.js';
import { instant, percent } from './virtue-format.js';

const POLL_MS = 1000;
const BARS_SHOWN = 30;

export class Optimisations {
  /** `explorer`: the experiment's explorer, whose topology shows a plan's prediction on request. */
  constructor(api, experimentId, explorer) {
    this.api = api;
    this.explorer = explorer;
    this.base = `/api/v1/virtue/experiments/${encodeURIComponent(experimentId)}/optimisations`;
    this.shownId = null;
    this.algorithm = el('select', { name: 'algorithm', 'aria-label': 'Algorithm' });
    this.seed = el('input', { type: 'number', name: 'seed', placeholder: 'seed (optional)', step: 1, 'aria-label': 'Seed' });
    this.limit = el('input', { type: 'number', name: 'timeLimitSeconds', placeholder: 'time limit, s (optional)', min: 1,
      step: 1, 'aria-label': 'Time limit in seconds' });
    const form = el('form', { class: 'virtue-optimise' }, 'Algorithm ', this.algorithm, ' ', this.seed, ' ', this.limit, ' ',
      el('button', { type: 'submit', class: 'virtue-optimise-start' }, 'Optimise'));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.start();
    });
    this.status = el('p', { class: 'virtue-status', role: 'status' });
    this.table = new DataTable([
      { key: 'id', title: 'Optimisation', cell: (o) => el('a', { href: '#', class: 'virtue-show-optimisation',
        onclick: (e) => { e.preventDefault(); this.show(o.id); } }, o.id) },
      { key: 'algorithm', title: 'Algorithm' },
      { key: 'seed', title: 'Seed', numeric: true },
      { key: 'state', title: 'State', cell: (o) => stateCell(o) },
      { key: 'requested', title: 'Requested', text: (o) => instant(o.requested) },
      { key: 'finished', title: 'Finished', text: (o) => instant(o.finished) },
      { key: 'executed', title: 'Executed', text: (o) => instant(o.executed) },
      { key: 'minimax', title: 'Minimax before → after', text: (o) => (o.result
        ? `${percent(o.result.minimaxBefore)} → ${percent(o.result.minimaxAfter)}` : '') },
    ], { filter: false, empty: 'No optimisations yet', rowKey: (o) => o.id });
    this.comparison = el('div', { class: 'virtue-comparison' });
    this.element = el('section', { class: 'virtue-optimisations' }, el('h3', {}, 'Optimisations'), form, this.status,
      this.table.element, this.comparison);
  }

  async load() {
    try {
      const algorithms = await this.api.get('/api/v1/virtue/algorithms');
      this.algorithm.replaceChildren(...algorithms.map((a) => el('option', { value: a.name }, a.name)));
    } catch (e) {
      this.say(`Cannot list the algorithms: ${e.message}`, true);
    }
    await this.refresh();
  }

  async refresh() {
    let list;
    try {
      list = await this.api.get(this.base);
    } catch (e) {
      this.say(`Cannot list the optimisations: ${e.message}`, true);
      return;
    }
    this.list = list;
    this.table.setRows(list);
    const shown = list.find((o) => o.id === this.shownId);
    if (shown) {
      this.render(shown);
    } else {
      const done = list.filter((o) => o.state === 'DONE').sort((a, b) => String(b.finished).localeCompare(String(a.finished)))[0];
      if (done) this.show(done.id);
    }
    clearTimeout(this.poll);
    if (list.some((o) => o.state === 'QUEUED' || o.state === 'RUNNING')) {
      // progress: poll while one is under way, and stop when the operator left the page
      this.poll = setTimeout(() => { if (this.element.isConnected) this.refresh(); }, POLL_MS);
    }
  }

  async start() {
    const body = { algorithm: this.algorithm.value };
    if (this.seed.value !== '') body.seed = Number(this.seed.value);
    if (this.limit.value !== '') body.timeLimitSeconds = Number(this.limit.value);
    try {
      const o = await this.api.post(this.base, body);
      this.say(`Optimisation ${o.id} (${o.algorithm}) ${o.state.toLowerCase()}`, false);
      this.shownId = o.id;
    } catch (e) {
      this.say(e.status === 409 ? `Not started: ${e.message} (one optimisation at a time per experiment)`
        : `Not started: ${e.message}`, true);
    }
    await this.refresh();
  }

  show(id) {
    this.shownId = id;
    const o = this.list?.find((x) => x.id === id);
    if (o) this.render(o);
  }

  render(o) {
    this.comparison.dataset.optimisation = o.id;
    this.comparison.dataset.state = o.state;
    const head = el('h4', {}, `${o.id}: ${o.algorithm}${o.seed !== null && o.seed !== undefined ? `, seed ${o.seed}` : ''}`);
    if (o.state === 'QUEUED' || o.state === 'RUNNING') {
      this.comparison.replaceChildren(head, stateCell(o));
      return;
    }
    if (o.state === 'FAILED') {
      this.comparison.replaceChildren(head, el('p', { class: 'error' }, `Failed: ${o.error ?? 'no reason given'}`));
      return;
    }
    const r = o.result;
    if (!r) {
      this.comparison.replaceChildren(head, el('p', { class: 'hint' }, 'No result.'));
      return;
    }
    const drop = r.minimaxBefore - r.minimaxAfter;
    const headline = el('p', { class: 'virtue-minimax' },
      'Minimax link utilisation ', el('strong', { class: 'virtue-minimax-before' }, percent(r.minimaxBefore)), ' → ',
      el('strong', { class: 'virtue-minimax-after' }, percent(r.minimaxAfter)),
      ` (${drop >= 0 ? '−' : '+'}${Math.abs(drop * 100).toFixed(1)} points)`,
      ` · hottest link ${r.hottestBefore ?? '?'} → ${r.hottestAfter ?? '?'}`,
      r.feasible === false ? ' · NOT FEASIBLE' : '',
      r.bound ? ` · bound: ${r.bound.status}, minimax ≥ ${percent(r.bound.minimax)}, gap ${percent(r.bound.gap)}` : '');
    const view = (label, prediction) => el('button', { type: 'button', class: `virtue-view-${label.split(' ')[0]}`,
      onclick: () => this.explorer.showPredicted(prediction) }, label);
    const views = el('p', { class: 'virtue-views' }, 'Topology: ',
      view('before (predicted)', { label: 'before', links: r.before, pms: r.cpuBefore }), ' ',
      view('after (predicted)', { label: 'after', links: r.after, pms: r.cpuAfter }), ' ',
      view('measured', null), ' ',
      el('button', { type: 'button', class: 'virtue-executed', onclick: () => this.markExecuted(o) }, 'Mark executed'));
    const moves = new DataTable([{ key: 'vm', title: 'VM' }, { key: 'from', title: 'From PM' }, { key: 'to', title: 'To PM' }],
      { filterLabel: 'Filter moves', empty: 'No VM moves', rowKey: (m) => m.vm });
    moves.setRows(r.moves ?? []);
    this.comparison.replaceChildren(head, headline, views,
      el('div', { class: 'virtue-comparison-grid' },
        el('div', {}, el('h4', {}, `Moves (${(r.moves ?? []).length})`), moves.element),
        el('div', {}, el('h4', {}, 'Links: predicted utilisation before and after'), pairedBars(r.before, r.after, 'link')),
        el('div', {}, el('h4', {}, 'PMs: CPU before and after'), pairedBars(r.cpuBefore, r.cpuAfter, 'pm'))));
  }

  async markExecuted(o) {
    try {
      await this.api.post(`${this.base}/${encodeURIComponent(o.id)}/executed`);
      this.say(`Marked ${o.id} executed: the experiment's placement is its plan now.`, false);
      this.explorer.showPredicted(null);
      await this.explorer.reload();
    } catch (e) {
      this.say(`Cannot mark ${o.id} executed: ${e.message}`, true);
    }
  }

  say(text, error) {
    this.status.textContent = text;
    this.status.classList.toggle('error', error);
  }
}

function stateCell(o) {
  if (o.state !== 'QUEUED' && o.state !== 'RUNNING') {
    return el('span', { class: `virtue-state virtue-state-${o.state}` }, o.state);
  }
  const p = Math.max(0, Math.min(1, o.progress ?? 0));
  return el('span', { class: `virtue-state virtue-state-${o.state}` }, `${o.state} `,
    el('progress', { max: 1, value: p, class: 'virtue-progress' }), ` ${Math.round(p * 100)} %`);
}

/**
 * Paired bars for {id: before} and {id: after}: the BARS_SHOWN busiest (by the larger of the two)
 * first; the rest behind a button. Each bar is in its utilisation band's colour.
 */
export function pairedBars(before, after, kind) {
  const ids = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const value = (map, id) => (typeof map?.[id] === 'number' ? map[id] : null);
  ids.sort((a, b) => Math.max(value(before, b) ?? 0, value(after, b) ?? 0) - Math.max(value(before, a) ?? 0, value(after, a) ?? 0)
    || a.localeCompare(b));
  const scale = Math.max(1, ...ids.map((id) => Math.max(value(before, id) ?? 0, value(after, id) ?? 0)));
  const bar = (u, which) => el('span', { class: `virtue-bar virtue-bar-${which}`, title: `${which}: ${percent(u)}`,
    style: `width: ${u === null ? 0 : ((u / scale) * 100).toFixed(1)}%; background: ${UTILISATION_COLOURS[utilisationBand(u)]}` });
  const row = (id) => el('div', { class: 'virtue-pair', 'data-id': id, 'data-kind': kind },
    el('span', { class: 'virtue-pair-label', title: id }, id),
    el('span', { class: 'virtue-pair-bars' }, bar(value(before, id), 'before'), bar(value(after, id), 'after')),
    el('span', { class: 'virtue-pair-values' }, `${percent(value(before, id))} → ${percent(value(after, id))}`));
  const list = el('div', { class: 'virtue-pairs' }, ...ids.slice(0, BARS_SHOWN).map(row));
  if (ids.length > BARS_SHOWN) {
    const more = el('button', { type: 'button', class: 'virtue-more' }, `Show all ${ids.length}`);
    more.addEventListener('click', () => {
      more.remove();
      list.append(...ids.slice(BARS_SHOWN).map(row));
    });
    list.append(more);
  }
  if (ids.length === 0) list.append(el('p', { class: 'hint' }, 'Nothing predicted.'));
  return el('div', {}, el('p', { class: 'hint virtue-pairs-key' }, 'upper bar: before · lower bar: after'), list);
}
