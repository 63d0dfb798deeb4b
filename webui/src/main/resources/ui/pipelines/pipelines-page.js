// The web UI's pipelines page (registered by io.heliograph.webui.pipelines.PipelinesPage): for each
// OpenFlow message type, its listeners in the order they run, reordered by dragging or with the move
// buttons, then saved (PUT /api/v1/pipelines/<type>) or reverted to what the controller has now. The
// list shows the configured order: names whose app is stopped keep their place, marked as not running,
// and running listeners the configuration does not name follow, as they run. #/pipelines/<TYPE> shows
// one type. A refused order shows the API's message at the listener it names; the edit stays, so the
// operator can fix it or revert. Unedited pipelines are asked for again every few seconds.

import { el, stylesheet } from '/ui/dom.js';
import { ListenerOrder } from '/ui/pipelines/listener-order.js';

const PIPELINES = '/api/v1/pipelines';
const REFRESH_MS = 5000;
const NAMED = /^names\[(\d+)\]$/;

/** The names the editor shows: the configured order, then running listeners it does not name. */
export function editableOrder(pipeline) {
  const names = [...new Set(pipeline.order)];
  for (const name of pipeline.listeners) {
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

class PipelineCard {
  constructor(api, pipeline) {
    this.api = api;
    this.type = pipeline.type;
    this.dirty = false;
    this.shown = null;
    this.order = new ListenerOrder(this.type, () => this.edited());
    this.effect = el('p', { class: 'hg-pipeline-effect' });
    this.status = el('p', { class: 'hg-pipeline-status', role: 'status' });
    this.error = el('p', { class: 'error hg-pipeline-error', role: 'alert' });
    this.saveButton = el('button', { type: 'button', class: 'hg-save', disabled: true, onclick: () => this.save() }, 'Save');
    this.revertButton = el('button', { type: 'button', class: 'hg-revert', disabled: true, onclick: () => this.revert() },
      'Revert');
    this.element = el('section', { class: 'hg-pipeline', 'data-type': this.type },
      el('h2', {}, this.type), this.effect, this.order.element,
      el('div', { class: 'hg-pipeline-buttons' }, this.saveButton, ' ', this.revertButton), this.status, this.error);
    this.show(pipeline);
  }

  /** Shows the controller's pipeline, dropping any edit. */
  show(pipeline) {
    this.shown = JSON.stringify(pipeline);
    this.running = pipeline.listeners;
    this.effect.textContent = pipeline.listeners.length
      ? 'Runs now: ' + pipeline.listeners.join(' → ')
      : 'No listener runs now.';
    this.order.set(editableOrder(pipeline), pipeline.listeners);
    this.setDirty(false);
  }

  setDirty(dirty) {
    this.dirty = dirty;
    this.saveButton.disabled = !dirty;
    this.revertButton.disabled = !dirty;
    this.element.classList.toggle('hg-edited', dirty);
  }

  edited() {
    this.setDirty(true);
    this.order.mark(null);
    this.error.textContent = '';
    this.status.textContent = 'Not saved: the controller still runs the order above.';
  }

  async save() {
    this.saveButton.disabled = true;
    const names = this.order.names;
    try {
      const saved = await this.api.put(`${PIPELINES}/${encodeURIComponent(this.type)}`, names);
      this.show(saved);
      this.error.textContent = '';
      this.status.textContent = `Saved: ${this.type} runs ${saved.listeners.join(' → ') || 'no listener'}.`;
    } catch (e) {
      this.saveButton.disabled = false;
      this.status.textContent = '';
      this.error.textContent = `The controller refused this order: ${e.message}`;
      const named = NAMED.exec(e.field || '');
      if (named) this.order.mark(Number(named[1]), e.message);
    }
  }

  async revert() {
    try {
      this.show(await this.fetch());
      this.error.textContent = '';
      this.status.textContent = 'Reverted to the order the controller runs.';
    } catch (e) {
      this.error.textContent = `Cannot read the ${this.type} pipeline: ${e.message}`;
    }
  }

  fetch() {
    return this.api.get(`${PIPELINES}/${encodeURIComponent(this.type)}`);
  }

  /** Shows what the controller has now, unless the operator is editing. */
  async refresh() {
    if (this.dirty) return;
    const now = await this.fetch();
    if (!this.dirty && JSON.stringify(now) !== this.shown) this.show(now);
  }
}

export async function render(element, api, rest) {
  stylesheet('/ui/pipelines/pipelines.css');
  const pipelines = rest
    ? [await api.get(`${PIPELINES}/${encodeURIComponent(rest)}`)]
    : await api.get(PIPELINES);
  element.append(el('h1', {}, rest ? `Pipeline ${pipelines[0].type}` : 'Pipelines'),
    el('p', { class: 'hint' }, 'Each OpenFlow message type runs through its listeners in this order; a listener '
      + 'may stop a message from going further. Drag a listener to its new place (or use its ↑ ↓ buttons), then '
      + 'save. Listeners the order does not name run last.'));
  if (!pipelines.length) {
    element.append(el('p', { class: 'hint hg-no-pipelines' }, 'No listener runs: no app listens to OpenFlow messages now.'));
    return;
  }
  const cards = pipelines.map((p) => new PipelineCard(api, p));
  element.append(el('div', { class: 'hg-pipelines' }, cards.map((c) => c.element)));

  const refresh = async () => {
    if (!element.isConnected) return;   // the operator went to another page
    for (const card of cards) {
      try {
        await card.refresh();
      } catch (e) {
        /* the next round tries again; Revert and Save report errors */
      }
    }
    setTimeout(refresh, REFRESH_MS);
  };
  setTimeout(refresh, REFRESH_MS);
}
