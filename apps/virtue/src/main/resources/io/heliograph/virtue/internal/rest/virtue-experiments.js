// The experiment list: each experiment's state, times, VMs, samples and last measurement, with start, stop and
// delete; and a new experiment from an EDF file. A refused EDF shows the controller's problems, each
// with the JSON path it is at. Experiments open in the explorer at #/virtue/<id>.

import { el } from '/ui/dom.js';
import { DataTable } from '/ui/table.js';
import { instant } from './virtue-format.js';

const BASE = '/api/v1/virtue/experiments';

export class ExperimentList {
  /** `selected`: the id shown in the explorer (its row is marked); onChange({created?, deleted?}): something was created, started, stopped or deleted. */
  constructor(api, { selected = null, onChange = () => {} } = {}) {
    this.api = api;
    this.selected = selected;
    this.onChange = onChange;
    this.status = el('p', { class: 'virtue-status', role: 'status' });
    this.table = new DataTable([
      { key: 'name', title: 'Experiment', text: (e) => `${e.name ?? ''} ${e.id}`, cell: (e) => this.nameCell(e) },
      { key: 'state', title: 'State', cell: (e) => el('span', { class: `virtue-state virtue-state-${e.state}` }, e.state) },
      { key: 'created', title: 'Created', text: (e) => instant(e.created) },
      { key: 'started', title: 'Started', text: (e) => instant(e.started) },
      { key: 'stopped', title: 'Stopped', text: (e) => instant(e.stopped) },
      { key: 'vms', title: 'VMs', numeric: true },
      { key: 'samples', title: 'Samples', numeric: true },
      { key: 'measuredAt', title: 'Last measured', text: (e) => (e.measuredAt ? instant(e.measuredAt) : 'never') },
      { key: 'actions', title: '', text: () => '', cell: (e) => this.actions(e) },
    ], { filterLabel: 'Filter experiments', empty: 'No experiments yet: create one from an EDF file', rowKey: (e) => e.id });
    this.element = el('section', { class: 'virtue-experiments' },
      el('h2', {}, 'Experiments'), this.createForm(), this.status, this.table.element);
  }

  async load() {
    try {
      const list = await this.api.get(BASE);
      this.table.setRows(list);
      return list;
    } catch (e) {
      this.say(`Cannot list the experiments: ${e.message}`, true);
      return null;
    }
  }

  nameCell(e) {
    return el('a', { href: `#/virtue/${encodeURIComponent(e.id)}`,
      class: e.id === this.selected ? 'virtue-open virtue-selected' : 'virtue-open' },
      e.name && e.name !== e.id ? `${e.name} (${e.id})` : e.id);
  }

  actions(e) {
    const act = (label, cls, run) => el('button', { type: 'button', class: cls, onclick: run }, label);
    const buttons = [];
    if (e.state !== 'RUNNING') {
      buttons.push(act('Start', 'virtue-start', () => this.run(`Started ${e.id}`, () => this.api.post(`${BASE}/${e.id}/start`))));
    } else {
      buttons.push(act('Stop', 'virtue-stop', () => this.run(`Stopped ${e.id}`, () => this.api.post(`${BASE}/${e.id}/stop`))));
    }
    const remove = act('Delete', 'virtue-delete', () => {
      // asked in the row: a deleted experiment's measurements are gone
      remove.replaceWith(el('span', { class: 'virtue-confirm' }, 'Delete it and its measurements? ',
        act('Yes', 'virtue-delete-yes', () => this.run(`Deleted ${e.id}`, () => this.api.delete(`${BASE}/${e.id}`), { deleted: e.id })),
        ' ', act('No', 'virtue-delete-no', () => this.load())));
    });
    buttons.push(remove);
    return el('span', { class: 'virtue-actions' }, ...buttons);
  }

  async run(done, call, change = {}) {
    try {
      await call();
      this.say(done, false);
    } catch (e) {
      this.say(e.message, true);
      change = {};
    }
    await this.load();
    this.onChange(change);
  }

  say(text, error) {
    this.status.textContent = text;
    this.status.classList.toggle('error', error);
  }

  createForm() {
    const file = el('input', { type: 'file', accept: '.json,application/json', name: 'edf', 'aria-label': 'EDF file' });
    const name = el('input', { type: 'text', name: 'name', placeholder: 'name (optional)', pattern: '[a-z0-9][a-z0-9-]{0,39}',
      'aria-label': 'Experiment name' });
    const problems = el('ul', { class: 'virtue-problems' });
    const form = el('form', { class: 'virtue-create' }, el('strong', {}, 'New experiment from an EDF file: '), file, ' ', name, ' ',
      el('button', { type: 'submit', class: 'virtue-create-submit' }, 'Create'), problems);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      problems.replaceChildren();
      const chosen = file.files[0];
      if (!chosen) {
        this.say('Choose an EDF file first.', true);
        return;
      }
      let edf;
      try {
        edf = JSON.parse(await chosen.text());
      } catch (e) {
        this.say(`${chosen.name} is not JSON: ${e.message}`, true);
        return;
      }
      const query = name.value.trim() ? `?name=${encodeURIComponent(name.value.trim())}` : '';
      try {
        const created = await this.api.post(BASE + query, edf);
        this.say(`Created ${created.id} from ${chosen.name}: ${created.vms} VMs`, false);
        form.reset();
        await this.load();
        this.onChange({ created });
      } catch (e) {
        const listed = problemsOf(e);
        this.say(listed.length > 0 ? `${chosen.name} refused: ${listed.length} problem${listed.length === 1 ? '' : 's'}`
          : `${chosen.name} refused: ${e.message}`, true);
        problems.replaceChildren(...listed.map((p) =>
          el('li', {}, el('code', { class: 'virtue-problem-path' }, p.path), ' ', p.message)));
      }
    });
    return form;
  }
}

/**
 * The problems a refusal lists ({path, message}): a `problems` list when the answer has one, else its
 * message read as the controller writes a refused EDF ("$.path: message; $.other: message"), else the
 * one field it names.
 */
export function problemsOf(error) {
  const body = error.body;
  if (body && Array.isArray(body.problems)) {
    return body.problems.map((p) => ({ path: String(p.path ?? ''), message: String(p.message ?? '') }));
  }
  const text = typeof body?.message === 'string' ? body.message : '';
  if (text.startsWith('$')) {
    return text.split(/; (?=\$)/).map((part) => {
      const colon = part.indexOf(': ');
      return colon < 0 ? { path: part, message: '' } : { path: part.slice(0, colon), message: part.slice(colon + 2) };
    });
  }
  return error.field ? [{ path: error.field, message: error.message }] : [];
}
