// The latest central decision (version, when, how long, gap, requests and clients served, why the last
// round made none) and the optimiser's knobs with a form that replaces them (PUT /api/v1/vdn/knobs: a
// refusal shows the controller's message and the JSON path it names).

import { el } from '/ui/dom.js';

const SCHEMES = ['balanced', 'quality', 'quantity'];

export class DecisionPanel {
  constructor(api, onChange) {
    this.api = api;
    this.onChange = onChange;
    this.facts = el('dl', { class: 'vdn-facts' });
    this.service = el('input', { name: 'serviceWeight', type: 'number', min: 0, step: 1 });
    this.cost = el('input', { name: 'costWeight', type: 'number', min: 0, step: 1 });
    this.scheme = el('select', { name: 'priorityScheme' }, ...SCHEMES.map((s) => el('option', { value: s }, s)));
    this.priorities = el('textarea', { name: 'priorities', rows: 2, cols: 50, placeholder: '{"final": 100, "news/4500": 20}' });
    this.costs = el('textarea', { name: 'linkCosts', rows: 2, cols: 50, placeholder: '{"S1->R1": 50}' });
    this.message = el('p', { class: 'vdn-message', role: 'status' });
    const form = el('form', { class: 'vdn-knobs', onsubmit: (e) => { e.preventDefault(); this.submit(); } },
      el('label', {}, 'Service weight ', this.service), el('label', {}, 'Cost weight ', this.cost),
      el('label', {}, 'Priorities ', this.scheme), el('label', {}, 'Priority overrides ', this.priorities),
      el('label', {}, 'Link costs ', this.costs), el('button', { type: 'submit' }, 'Use'), this.message);
    this.element = el('section', { class: 'vdn-decision' }, el('h2', {}, 'Central decision'), this.facts,
      el('h3', {}, 'Knobs'), form);
    this.edited = false;
    for (const input of [this.service, this.cost, this.scheme, this.priorities, this.costs]) {
      input.addEventListener('input', () => { this.edited = true; });
    }
  }

  show(d, knobs) {
    const fact = (k, v) => [el('dt', {}, k), el('dd', { 'data-fact': k }, v === null || v === undefined ? '-' : String(v))];
    const gap = d.gapPerMillion === null || d.gapPerMillion === undefined ? '-' : `${(d.gapPerMillion / 1e4).toFixed(2)} %`;
    this.facts.replaceChildren(
      ...fact('Version', d.version),
      ...fact('State', d.state),
      ...fact('Decided', d.atMillis ? new Date(d.atMillis).toLocaleTimeString() : null),
      ...fact('Optimiser', d.method ? `${d.method}, ${d.millis} ms, gap ${gap}` : null),
      ...fact('Requests served', d.requests !== undefined ? `${d.requestsServed} of ${d.requests}` : null),
      ...fact('Clients served', d.clients !== undefined ? `${d.clientsServed} of ${d.clients}` : null),
      ...fact('Deciding', d.decidingHere ? 'on this instance' : 'on another instance'),
      ...fact('Last round', d.lastRound));
    if (!this.edited) {
      this.service.value = knobs.serviceWeight;
      this.cost.value = knobs.costWeight;
      this.scheme.value = knobs.priorityScheme;
      this.priorities.value = JSON.stringify(knobs.priorities);
      this.costs.value = JSON.stringify(knobs.linkCosts);
    }
  }

  async submit() {
    let body;
    try {
      body = { serviceWeight: Number(this.service.value), costWeight: Number(this.cost.value),
        priorityScheme: this.scheme.value, priorities: JSON.parse(this.priorities.value || '{}'),
        linkCosts: JSON.parse(this.costs.value || '{}') };
    } catch (e) {
      this.say(`Not JSON: ${e.message}`, true);
      return;
    }
    try {
      await this.api.put('/api/v1/vdn/knobs', body);
      this.edited = false;
      this.say('The next decision uses these knobs.', false);
      this.onChange();
    } catch (e) {
      this.say(`Refused${e.field ? ` (${e.field})` : ''}: ${e.message}`, true);
    }
  }

  say(text, error) {
    this.message.textContent = text;
    this.message.classList.toggle('error', error);
  }
}
