// The web UI's static flows editor, contributed by the static flows app
// (io.heliograph.staticflows.internal.rest.StaticFlowsPage, served at /ui/pages/static-flows.js).
//
// It lists the static flows, groups and meters of every switch (/api/v1/staticflows/{kind}) and edits
// one entry at a time. The editor is a form for the common members (switch, name, kind; a flow's
// table, priority, timeouts, match fields and actions) and a JSON textarea holding the whole document
// the API takes (Floodlight's member names), kept in step both ways: a change to a field rewrites the
// document, a change to the document fills in the fields, and members the form has no field for
// (cookie, flags, other instructions, a group's buckets, a meter's bands) live in the document alone.
//
// The controller validates. Its refusal names a field, and the message is shown next to that field:
// the form's own, the row of a match field, or the JSON document for a member the form has no field
// for. A missing name or switch is caught before anything is sent.
//
// Each switch's reconciliation (/api/v1/staticflows/reconciliation) is listed above the entries, and
// an entry's switch says when its reconciliation is not OK: a switch whose tables cannot be read
// (NOT_POSSIBLE) has its entries pushed without being verified (UNVERIFIED).

import { el } from '/ui/dom.js';
import { DataTable } from '/ui/table.js';

const KINDS = {
  flow: { path: 'flows', title: 'Flows' },
  group: { path: 'groups', title: 'Groups' },
  meter: { path: 'meters', title: 'Meters' },
};
/** A flow's members other than its match fields (the static flows app's EntryCodec): any other member is a match field. */
const FLOW_MEMBERS = new Set(['switch', 'name', 'entry_type', 'table', 'priority', 'idle_timeout', 'hard_timeout',
  'cookie', 'flags', 'active', 'actions', 'instruction_apply_actions', 'instruction_write_actions',
  'instruction_clear_actions', 'instruction_goto_table', 'instruction_goto_meter', 'instruction_write_metadata']);
/** The flow members the form has a field of its own for, besides the match and the actions. */
const FLOW_NUMBERS = [['table', 'Table'], ['priority', 'Priority'], ['idle_timeout', 'Idle timeout (s)'],
  ['hard_timeout', 'Hard timeout (s)']];
/** Suggestions for a match field's name; the controller decides what it takes. */
const MATCH_FIELDS = ['in_port', 'eth_src', 'eth_dst', 'eth_type', 'eth_vlan_vid', 'eth_vlan_pcp', 'ip_proto',
  'ip_dscp', 'ip_ecn', 'ipv4_src', 'ipv4_dst', 'ipv6_src', 'ipv6_dst', 'ipv6_label', 'tcp_src', 'tcp_dst', 'udp_src',
  'udp_dst', 'sctp_src', 'sctp_dst', 'icmpv4_type', 'icmpv4_code', 'icmpv6_type', 'icmpv6_code', 'arp_opcode',
  'arp_spa', 'arp_tpa', 'arp_sha', 'arp_tha', 'mpls_label', 'mpls_tc', 'mpls_bos', 'tunnel_id', 'metadata'];
/** What a new group or meter needs besides switch and name, as a start to edit in the document. */
const TEMPLATES = {
  flow: {},
  group: { group_id: 1, group_type: 'all', group_buckets: [{ bucket_actions: 'output=1' }] },
  meter: { meter_id: 1, meter_flags: ['kbps'], meter_bands: [{ type: 'drop', rate: 1000, burst_size: 0 }] },
};
const EVENT_DELAY_MS = 1000;
/** What a switch's reconciliation state means, next to the switch of each of its entries (OK says nothing). */
const RECONCILIATION = {
  RECONCILING: 'reconciling',
  RETRYING: 'reconciliation failed, retrying',
  NOT_POSSIBLE: 'reconciliation not possible',
  SLAVE: 'SLAVE here: its master reconciles',
};
const STYLE = `
.hg-sf-editor { background: #fff; padding: 0.8em 1.2em; border-radius: 6px; margin-bottom: 1.2em; max-width: 60em; }
.hg-sf-editor h2 { margin-top: 0.2em; }
.hg-sf-row { display: flex; flex-wrap: wrap; gap: 0.6em 1.2em; margin: 0.5em 0; }
.hg-sf-field { display: grid; gap: 0.15em; align-content: start; }
.hg-sf-field > .hg-sf-label, .hg-sf-legend { font-size: 0.9em; color: #5b6475; }
.hg-sf-field input, .hg-sf-field select { padding: 0.2em 0.4em; }
.hg-sf-match-row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4em; margin: 0.25em 0; }
.hg-sf-invalid input, .hg-sf-invalid select, .hg-sf-invalid textarea, input.hg-sf-invalid { border: 1px solid #b3261e; }
.hg-sf-error:empty { display: none; }
.hg-sf-error { font-size: 0.9em; }
.hg-sf-json { width: 100%; box-sizing: border-box; font-family: monospace; font-size: 0.9em; }
.hg-sf-buttons { display: flex; gap: 0.6em; align-items: center; margin-top: 0.6em; }
.hg-sf-result { color: #1b6e2f; }
.hg-sf-lists h2 { margin-bottom: 0.2em; }
.hg-sf-tools { white-space: nowrap; }
.hg-sf-reconciliation-note { color: #b3261e; font-size: 0.9em; }
`;

export async function render(element, api) {
  addStyle();
  const tables = {
    flow: new DataTable([
      { key: 'dpid', title: 'Switch', text: switchText, cell: switchCell },
      { key: 'name', title: 'Name' },
      { key: 'table', title: 'Table', numeric: true, text: (v) => v.entry.table, value: (v) => Number(v.entry.table) },
      { key: 'priority', title: 'Priority', numeric: true, text: (v) => v.entry.priority,
        value: (v) => Number(v.entry.priority) },
      { key: 'match', title: 'Match', text: (v) => matchText(v.entry) },
      { key: 'instructions', title: 'Actions', text: (v) => instructionsText(v.entry) },
      { key: 'state', title: 'State', text: stateText },
      { key: 'tools', title: '', text: () => '', cell: (v) => tools(v) },
    ], { filterLabel: 'Filter flows', empty: 'No static flows', rowKey: rowKey }),
    group: new DataTable([
      { key: 'dpid', title: 'Switch', text: switchText, cell: switchCell },
      { key: 'name', title: 'Name' },
      { key: 'group_id', title: 'Group id', numeric: true, text: (v) => v.entry.group_id,
        value: (v) => Number(v.entry.group_id) },
      { key: 'group_type', title: 'Type', text: (v) => v.entry.group_type },
      { key: 'buckets', title: 'Buckets', text: (v) => bucketsText(v.entry) },
      { key: 'state', title: 'State', text: stateText },
      { key: 'tools', title: '', text: () => '', cell: (v) => tools(v) },
    ], { filterLabel: 'Filter groups', empty: 'No static groups', rowKey: rowKey }),
    meter: new DataTable([
      { key: 'dpid', title: 'Switch', text: switchText, cell: switchCell },
      { key: 'name', title: 'Name' },
      { key: 'meter_id', title: 'Meter id', numeric: true, text: (v) => v.entry.meter_id,
        value: (v) => Number(v.entry.meter_id) },
      { key: 'meter_flags', title: 'Flags', text: (v) => (v.entry.meter_flags || []).join(', ') },
      { key: 'bands', title: 'Bands', text: (v) => bandsText(v.entry) },
      { key: 'state', title: 'State', text: stateText },
      { key: 'tools', title: '', text: () => '', cell: (v) => tools(v) },
    ], { filterLabel: 'Filter meters', empty: 'No static meters', rowKey: rowKey }),
  };
  const reconciliation = new DataTable([
    { key: 'dpid', title: 'Switch' },
    { key: 'state', title: 'Reconciliation' },
    { key: 'reason', title: 'Why' },
    { key: 'attempts', title: 'Attempts', numeric: true },
    { key: 'failedInARow', title: 'Failed in a row', numeric: true },
    { key: 'lastAttempt', title: 'Last attempt', text: (v) => timeText(v.lastAttempt) },
    { key: 'nextAttempt', title: 'Next attempt', text: (v) => timeText(v.nextAttempt) },
  ], { filterLabel: 'Filter switches', empty: 'No switch this controller writes to', rowKey: (v) => v.dpid });
  const listStatus = el('p', { class: 'hint hg-sf-list-status', role: 'status' });
  const listError = el('p', { class: 'error hg-sf-list-error', role: 'alert' });
  const editor = new EntryEditor(api, () => { listStatus.textContent = ''; return reload(); });
  const lists = el('div', { class: 'hg-sf-lists' },
    el('div', { class: 'hg-sf-buttons' },
      el('button', { type: 'button', class: 'hg-sf-refresh', onclick: () => { reload(); loadSwitches(); } }, 'Refresh'),
      listStatus),
    listError,
    el('section', { class: 'hg-sf-reconciliation' }, el('h2', {}, 'Reconciliation with the switches'),
      el('p', { class: 'hint' }, 'Whether each switch\'s tables could be read and brought in line with its entries. '
        + 'NOT_POSSIBLE: the switch does not answer; its entries were pushed without being verified, stale ones stay, '
        + 'and it is tried again at a growing interval.'),
      reconciliation.element),
    Object.entries(tables).map(([kind, table]) =>
      el('section', { class: 'hg-sf-list', 'data-kind': kind }, el('h2', {}, KINDS[kind].title), table.element)));
  const root = el('div', { class: 'hg-static-flows' }, el('h1', {}, 'Static flows'), editor.element, lists);
  element.append(root);

  // The entry whose deletion awaits a yes (its row key): the question stays when the lists are drawn again.
  let asking = null;

  /** Edit and Delete for one listed entry; Delete asks first, in the row itself. */
  function tools(view) {
    const cell = el('span', { class: 'hg-sf-tools' });
    const idle = () => {
      if (asking === rowKey(view)) asking = null;
      cell.replaceChildren(
        el('button', { type: 'button', class: 'hg-sf-edit', onclick: () => editor.edit(view) }, 'Edit'), ' ',
        el('button', { type: 'button', class: 'hg-sf-delete', onclick: ask }, 'Delete'));
    };
    const ask = () => {
      asking = rowKey(view);
      cell.replaceChildren('Delete it? ',
        el('button', { type: 'button', class: 'hg-sf-confirm-delete', onclick: () => remove(view, cell, idle) },
          'Yes, delete'),
        ' ', el('button', { type: 'button', class: 'hg-sf-cancel-delete', onclick: idle }, 'Cancel'));
    };
    if (asking === rowKey(view)) ask();
    else idle();
    return cell;
  }

  async function remove(view, cell, idle) {
    asking = null;
    cell.replaceChildren('Deleting…');
    try {
      const answer = await api.delete(entryPath(view.kind, view.dpid, view.name));
      editor.forget(view);
      listStatus.textContent = `Deleted ${view.kind} '${view.name}' from ${view.dpid}: ${answer.outcome}`
        + notesText(answer.notes);
      await reload();
    } catch (e) {
      // e.g. a group that flows still use: say why in the row, and offer the buttons again
      cell.replaceChildren(el('span', { class: 'error hg-sf-delete-error' }, e.message), ' ',
        el('button', { type: 'button', class: 'hg-sf-cancel-delete', onclick: idle }, 'OK'));
    }
  }

  async function reload() {
    const kinds = Object.keys(KINDS);
    const paths = [...kinds.map((kind) => KINDS[kind].path), 'reconciliation'];
    const answers = await Promise.allSettled(paths.map((path) => api.get('/api/v1/staticflows/' + path)));
    const problems = [];
    answers.forEach((answer, i) => {
      const table = i < kinds.length ? tables[kinds[i]] : reconciliation;
      if (answer.status === 'fulfilled') table.setRows(answer.value);
      else problems.push(`Cannot list the static ${paths[i]}: ${answer.reason.message}`);
    });
    listError.textContent = problems.join(' ');
    root.dataset.loaded = String(Date.now());
  }

  async function loadSwitches() {
    try {
      const switches = await api.get('/api/v1/switches');
      editor.setSwitches(switches.map((s) => s.dpid), '');
    } catch (e) {
      editor.setSwitches([], `Cannot list the switches: ${e.message}`);
    }
  }

  let eventTimer = null;
  const soon = () => {
    if (eventTimer) return;
    eventTimer = setTimeout(() => {
      eventTimer = null;
      if (root.isConnected) { loadSwitches(); reload(); }
    }, EVENT_DELAY_MS);
  };
  if (api.events) {
    // a switch that (re)connects gets its entries back: their states change
    api.events.on('switch', soon);
    api.events.on('open', soon);
  }
  await Promise.all([loadSwitches(), reload()]);
}

/**
 * The form and the JSON document of one entry. `editing` is the stored entry the form was loaded
 * from: submitting the same kind, switch and name replaces it (PUT); anything else adds (POST), so
 * renaming an entry in the form adds a copy and leaves the original alone.
 */
class EntryEditor {
  constructor(api, onSaved) {
    this.api = api;
    this.onSaved = onSaved;
    this.editing = null;
    const changed = () => this.formChanged();
    this.heading = el('h2', {}, 'New entry');
    this.kind = el('select', { name: 'entry_type', onchange: () => this.kindChanged() },
      Object.keys(KINDS).map((k) => el('option', { value: k }, k)));
    this.switchSelect = el('select', { name: 'switch', oninput: changed });
    this.switchHint = el('span', { class: 'hint hg-sf-switch-hint' });
    this.name = el('input', { name: 'name', autocomplete: 'off', size: 24, oninput: changed });
    this.numbers = {};
    for (const [key] of FLOW_NUMBERS) {
      this.numbers[key] = el('input', { name: key, inputmode: 'numeric', size: 8, oninput: changed });
    }
    this.matchRows = el('div', { class: 'hg-sf-match' });
    this.matchError = el('span', { class: 'error hg-sf-error', 'data-error-for': 'match' });
    this.actions = el('input', { name: 'instruction_apply_actions', size: 48, oninput: changed,
      placeholder: 'output=2, set_field=eth_dst->02:00:00:00:00:01 (empty: drop)' });
    this.json = el('textarea', { class: 'hg-sf-json', name: 'document', rows: 14, spellcheck: 'false',
      oninput: () => this.jsonChanged() });
    this.jsonError = el('span', { class: 'error hg-sf-error', 'data-error-for': 'document' });
    this.submitButton = el('button', { type: 'submit', class: 'hg-sf-submit' }, 'Add');
    this.result = el('p', { class: 'hg-sf-result', role: 'status' });
    this.formError = el('p', { class: 'error hg-sf-form-error', role: 'alert' });
    this.flowPart = el('div', { class: 'hg-sf-flow' },
      el('div', { class: 'hg-sf-row' }, FLOW_NUMBERS.map(([key, label]) => field(label, key, this.numbers[key]))),
      el('div', { class: 'hg-sf-field', 'data-field': 'match' },
        el('span', { class: 'hg-sf-legend' }, 'Match (field = value; nothing matches every packet)'),
        this.matchRows,
        el('div', {}, el('button', { type: 'button', class: 'hg-sf-add-match',
          onclick: () => { this.matchRows.append(this.matchRow('', '')); this.matchRows.lastChild.field.focus(); } },
        'Add a match field')),
        this.matchError),
      el('div', { class: 'hg-sf-row' }, field('Actions (applied, in order)', 'instruction_apply_actions', this.actions)),
      el('datalist', { id: 'hg-sf-match-fields' }, MATCH_FIELDS.map((f) => el('option', { value: f }))));
    this.element = el('form', { class: 'hg-sf-editor', novalidate: true, onsubmit: (e) => this.submit(e) },
      this.heading,
      el('div', { class: 'hg-sf-row' },
        field('Kind', 'entry_type', this.kind),
        field('Switch', 'switch', this.switchSelect, this.switchHint),
        field('Name', 'name', this.name)),
      this.flowPart,
      el('label', { class: 'hg-sf-field', 'data-field': 'document' },
        el('span', { class: 'hg-sf-label' }, 'The entry as the API takes it (JSON); the fields above are part of it'),
        this.json, this.jsonError),
      el('div', { class: 'hg-sf-buttons' }, this.submitButton,
        el('button', { type: 'button', class: 'hg-sf-new', onclick: () => this.start() }, 'New entry')),
      this.formError, this.result);
    this.setSwitches([], '');
    this.start();
  }

  /** An empty flow to fill in, for no stored entry. */
  start() {
    this.editing = null;
    this.load({ entry_type: 'flow' });
    this.result.textContent = '';
  }

  /** Loads a listed entry to change it. */
  edit(view) {
    this.editing = { kind: view.kind, dpid: view.dpid, name: view.name };
    this.load(view.entry);
    this.result.textContent = '';
    this.element.scrollIntoView({ block: 'start' });
    this.name.focus();
  }

  /** After a delete: the form keeps what it shows, but it no longer names a stored entry. */
  forget(view) {
    if (this.editing && this.editing.kind === view.kind && this.editing.dpid === view.dpid
        && this.editing.name === view.name) {
      this.editing = null;
      this.updateTitle();
    }
  }

  load(entry) {
    this.clearErrors();
    this.json.value = pretty(entry);
    this.fill(entry);
  }

  setSwitches(dpids, problem) {
    const current = this.switchSelect.value;
    this.switchSelect.replaceChildren(el('option', { value: '' }, '— choose a switch —'),
      ...dpids.map((d) => el('option', { value: d }, d)));
    this.switchHint.textContent = problem;
    this.selectSwitch(current);
  }

  /** Selects dpid, adding it for a switch that is not connected (its entries wait for it). */
  selectSwitch(dpid) {
    const value = dpid === undefined || dpid === null ? '' : String(dpid);
    for (const option of this.switchSelect.querySelectorAll('option.hg-sf-offline')) {
      if (option.value !== value) option.remove();
    }
    if (![...this.switchSelect.options].some((o) => o.value === value)) {
      this.switchSelect.append(el('option', { value, class: 'hg-sf-offline' }, value + ' (not connected)'));
    }
    this.switchSelect.value = value;
  }

  matchRow(name, value) {
    const row = el('div', { class: 'hg-sf-match-row' });
    row.field = el('input', { class: 'hg-sf-match-field', 'aria-label': 'match field', placeholder: 'eth_type',
      list: 'hg-sf-match-fields', size: 16, '.value': name, oninput: () => this.formChanged() });
    row.value = el('input', { class: 'hg-sf-match-value', 'aria-label': 'value', placeholder: '0x0800', size: 24,
      '.value': value, oninput: () => this.formChanged() });
    row.error = el('span', { class: 'error hg-sf-error' });
    row.append(row.field, ' = ', row.value,
      el('button', { type: 'button', class: 'hg-sf-remove-match', title: 'Remove this match field',
        onclick: () => { row.remove(); this.formChanged(); } }, '✕'),
      row.error);
    return row;
  }

  /** The members the form's fields give, in the order a reader expects them. */
  formMembers() {
    const kind = this.kind.value;
    const members = {};
    if (this.switchSelect.value) members.switch = this.switchSelect.value;
    const name = this.name.value.trim();
    if (name) members.name = name;
    members.entry_type = kind;
    if (kind === 'flow') {
      for (const [key] of FLOW_NUMBERS) {
        const text = this.numbers[key].value.trim();
        if (text) members[key] = /^\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : text;
      }
      for (const row of this.matchRows.children) {
        const field = row.field.value.trim();
        if (field && !FLOW_MEMBERS.has(field)) members[field] = row.value.value.trim();
      }
      const actions = this.actions.value.trim();
      if (actions) members.instruction_apply_actions = actions;
    }
    return members;
  }

  /** The JSON document as an object, or { error } when it is not one. */
  parsed() {
    const text = this.json.value.trim();
    if (!text) return { value: {} };
    let value;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return { error: `not valid JSON: ${e.message}` };
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { error: 'the entry must be a JSON object ({ ... })' };
    }
    return { value };
  }

  /** The whole entry: the form's members and the document's others; null while the document is not an object. */
  entry() {
    const parsed = this.parsed();
    if (parsed.error) return null;
    const kind = this.kind.value;
    const entry = this.formMembers();
    for (const [key, value] of Object.entries(parsed.value)) {
      if (!ownedByForm(key, kind)) entry[key] = value;
    }
    return entry;
  }

  formChanged() {
    const entry = this.entry();
    if (entry) {
      this.json.value = pretty(entry);
      this.jsonError.textContent = '';
    } else {
      this.jsonError.textContent = `The document is ${this.parsed().error}; the fields you change reach it once it is mended.`;
    }
    this.updateTitle();
  }

  jsonChanged() {
    const parsed = this.parsed();
    if (parsed.error) {
      this.jsonError.textContent = `The document is ${parsed.error}.`;
      return;
    }
    this.jsonError.textContent = '';
    this.fill(parsed.value);
  }

  /** Another kind: keeps switch and name, starts the kind's own members afresh. */
  kindChanged() {
    this.json.value = pretty({ ...this.formMembers(), ...TEMPLATES[this.kind.value] });
    this.fill(JSON.parse(this.json.value));
  }

  /** Shows document's members in the form's fields (the document itself is left as it is). */
  fill(entry) {
    const type = String(entry.entry_type || 'flow').toLowerCase();
    if (KINDS[type]) {
      this.kind.value = type;
    } else {
      this.jsonError.textContent = `entry_type '${entry.entry_type}' is not flow, group or meter.`;
    }
    this.selectSwitch(entry.switch === undefined ? '' : entry.switch);
    this.name.value = entry.name === undefined ? '' : String(entry.name);
    const flow = this.kind.value === 'flow';
    this.flowPart.hidden = !flow;
    for (const [key] of FLOW_NUMBERS) this.numbers[key].value = flow ? text(entry[key]) : '';
    this.matchRows.replaceChildren(...(flow ? Object.entries(entry) : [])
      .filter(([key]) => !FLOW_MEMBERS.has(key)).map(([key, value]) => this.matchRow(key, text(value))));
    this.actions.value = flow ? text(entry.instruction_apply_actions ?? entry.actions) : '';
    this.updateTitle();
  }

  /** Whether submitting replaces the entry being edited (same kind, switch and name). */
  replacing() {
    const members = this.formMembers();
    return Boolean(this.editing) && this.editing.kind === members.entry_type && this.editing.dpid === members.switch
      && this.editing.name === members.name;
  }

  updateTitle() {
    const replacing = this.replacing();
    this.submitButton.textContent = replacing ? 'Replace' : 'Add';
    this.heading.textContent = this.editing
      ? `Editing ${this.editing.kind} '${this.editing.name}' on ${this.editing.dpid}`
        + (replacing ? '' : ' (another switch or name: adds a new entry, the original stays)')
      : 'New entry';
  }

  /** What is plainly missing or misplaced, as [field, message], before asking the controller. */
  problems(entry) {
    const problems = [];
    if (!entry.switch) problems.push(['switch', 'Choose the switch this entry is for.']);
    if (!entry.name) problems.push(['name', 'Give the entry a name.']);
    if (entry.entry_type === 'flow') {
      for (const row of this.matchRows.children) {
        const field = row.field.value.trim();
        if (!field && row.value.value.trim()) {
          problems.push([row, 'Which field should have this value?']);
        } else if (FLOW_MEMBERS.has(field)) {
          problems.push([row, `${field} is not a match field: it has a field of its own above, or belongs in the document.`]);
        } else if (field && !row.value.value.trim()) {
          problems.push([row, `${field} needs a value (or remove the row).`]);
        }
      }
    }
    return problems;
  }

  async submit(event) {
    event.preventDefault();
    this.clearErrors();
    this.result.textContent = '';
    const entry = this.entry();
    if (!entry) {
      this.showError('document', `The document is ${this.parsed().error}.`);
      return;
    }
    const problems = this.problems(entry);
    if (problems.length) {
      for (const [where, message] of problems) this.showError(where, message);
      return;
    }
    const kind = entry.entry_type;
    const replacing = this.replacing();
    this.submitButton.disabled = true;
    try {
      const answer = replacing
        ? await this.api.put(entryPath(kind, entry.switch, entry.name), entry)
        : await this.api.post('/api/v1/staticflows/' + KINDS[kind].path, entry);
      const stored = answer.stored;
      if (stored) {
        this.editing = { kind: stored.kind, dpid: stored.dpid, name: stored.name };
        this.load(stored.entry);   // as the controller keeps it
      }
      this.result.textContent = `${replacing ? 'Replaced' : 'Added'} ${kind} '${entry.name}' on `
        + `${stored ? stored.dpid : entry.switch}: ${answer.outcome}${notesText(answer.notes)}`;
      await this.onSaved();
    } catch (e) {
      this.showError(e.field, e.status >= 500 ? `The switch or the controller failed: ${e.message}` : e.message);
    } finally {
      this.submitButton.disabled = false;
      this.updateTitle();
    }
  }

  clearErrors() {
    this.formError.textContent = '';
    for (const error of this.element.querySelectorAll('.hg-sf-error')) {
      error.textContent = '';
      delete error.dataset.field;
    }
    for (const invalid of this.element.querySelectorAll('.hg-sf-invalid')) invalid.classList.remove('hg-sf-invalid');
  }

  /**
   * Shows message next to what it is about: a match row, the form's field the API's field names, the
   * row of that match field, or the document for a member the form has no field for; the form itself
   * when no field is named. The message always names the field.
   */
  showError(where, message) {
    let target;
    let field = where;
    if (where instanceof HTMLElement) {
      target = where.error;
      field = where.field.value.trim() || 'match';
    } else {
      target = this.errorPlace(where);
    }
    target.textContent = !field || message.includes(field) || target === this.formError ? message : `${field}: ${message}`;
    if (field) target.dataset.field = field;
    const holder = target.closest('.hg-sf-match-row, .hg-sf-field');
    if (holder) holder.classList.add('hg-sf-invalid');
    target.scrollIntoView({ block: 'nearest' });
  }

  errorPlace(field) {
    if (!field) return this.formError;
    // the API's names for what the form shows under another: the path's switch, Floodlight's actions
    const shown = { dpid: 'switch', actions: 'instruction_apply_actions' }[field] || field;
    const own = this.element.querySelector(`.hg-sf-field[data-field="${CSS.escape(shown)}"] > .hg-sf-error`);
    if (own && !own.closest('[hidden]')) return own;
    if (this.kind.value === 'flow' && !FLOW_MEMBERS.has(field) && /^[a-z][a-z0-9_]*$/.test(field)) {
      const row = [...this.matchRows.children].find((r) => r.field.value.trim() === field);
      return row ? row.error : this.matchError;   // a prerequisite to add: eth_type for ipv4_dst
    }
    return this.jsonError;
  }
}

/** A label around a control, with the place for the control's error message. */
function field(label, key, control, ...extra) {
  return el('label', { class: 'hg-sf-field', 'data-field': key }, el('span', { class: 'hg-sf-label' }, label),
    control, ...extra, el('span', { class: 'error hg-sf-error', 'data-error-for': key }));
}

/** Whether the form has a field for member key of an entry of kind (else it lives in the document alone). */
function ownedByForm(key, kind) {
  if (key === 'switch' || key === 'name' || key === 'entry_type') return true;
  if (kind !== 'flow') return false;
  return FLOW_NUMBERS.some(([k]) => k === key) || key === 'actions' || key === 'instruction_apply_actions'
    || !FLOW_MEMBERS.has(key);
}

function entryPath(kind, dpid, name) {
  return `/api/v1/staticflows/${KINDS[kind].path}/${encodeURIComponent(dpid).replace(/%3A/gi, ':')}/`
    + encodeURIComponent(name);
}

function rowKey(view) {
  return `${view.kind}/${view.dpid}/${view.name}`;
}

function pretty(entry) {
  return JSON.stringify(entry, null, 2);
}

function text(value) {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function notesText(notes) {
  return notes && notes.length ? ` (${notes.join('; ')})` : '';
}

/** The entry's switch, and what its reconciliation state means when it is not OK. */
function switchText(view) {
  const note = RECONCILIATION[view.reconciliation];
  return note ? `${view.dpid} (${note})` : view.dpid;
}

function switchCell(view) {
  const note = RECONCILIATION[view.reconciliation];
  return el('span', {}, view.dpid,
    note ? el('span', { class: 'hg-sf-reconciliation-note', 'data-reconciliation': view.reconciliation }, ` (${note})`) : '');
}

function timeText(at) {
  return at ? new Date(at).toLocaleString() : '';
}

function stateText(view) {
  return view.detail ? `${view.state}: ${view.detail}` : view.state;
}

function matchText(entry) {
  const fields = Object.entries(entry).filter(([key]) => !FLOW_MEMBERS.has(key)).map(([k, v]) => `${k}=${text(v)}`);
  return fields.length ? fields.join(', ') : 'any';
}

function instructionsText(entry) {
  const parts = [];
  const apply = entry.instruction_apply_actions ?? entry.actions;
  const others = ['instruction_write_actions', 'instruction_clear_actions', 'instruction_goto_table',
    'instruction_goto_meter', 'instruction_write_metadata'].filter((k) => entry[k] !== undefined);
  if (apply) parts.push(String(apply));
  for (const key of others) parts.push(`${key.replace('instruction_', '')}: ${text(entry[key])}`);
  return parts.length ? parts.join('; ') : 'drop';
}

function bucketsText(entry) {
  return (entry.group_buckets || []).map((b) => (b.bucket_actions || 'drop')
    + (b.bucket_weight ? ` (weight ${b.bucket_weight})` : '')
    + (b.bucket_watch_port ? ` (watch port ${b.bucket_watch_port})` : '')).join(' | ');
}

function bandsText(entry) {
  return (entry.meter_bands || []).map((b) => `${b.type} at ${b.rate}` + (b.burst_size ? ` burst ${b.burst_size}` : '')
    + (b.prec_level !== undefined ? ` prec ${b.prec_level}` : '')).join(' | ');
}

function addStyle() {
  if (document.adoptedStyleSheets.some((s) => s.heliographPage === 'static-flows')) return;
  const sheet = new CSSStyleSheet();
  sheet.heliographPage = 'static-flows';
  sheet.replaceSync(STYLE);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
