// The scheduler and estimator in use, with a form that changes them (PUT /api/v1/circuit/scheduler: a
// refusal shows the controller's message and the field it names), the scheduling loop's last error,
// and the executor's status.

import { el } from '/ui/dom.js';

const SCHEDULERS = ['solstice', 'round-robin', 'fixed'];
const ESTIMATORS = ['voq', 'adu'];

export class SchedulerPanel {
  constructor(api, onChange) {
    this.api = api;
    this.onChange = onChange;
    this.facts = el('dl', { class: 'circuit-facts' });
    this.scheduler = el('select', { name: 'scheduler' }, ...SCHEDULERS.map((s) => el('option', { value: s }, s)));
    this.estimator = el('select', { name: 'estimator' }, ...ESTIMATORS.map((s) => el('option', { value: s }, s)));
    this.week = el('textarea', { name: 'fixedWeek', rows: 3, cols: 60,
      placeholder: 'fixed week as JSON (empty: the strobe)' });
    this.message = el('p', { class: 'circuit-message', role: 'status' });
    this.executor = el('pre', { class: 'circuit-executor' });
    const form = el('form', { class: 'circuit-choose', onsubmit: (e) => { e.preventDefault(); this.submit(); } },
      el('label', {}, 'Scheduler ', this.scheduler), el('label', {}, 'Estimator ', this.estimator), this.week,
      el('button', { type: 'submit' }, 'Use'), this.message);
    this.element = el('section', { class: 'circuit-scheduler' }, el('h2', {}, 'Scheduler'), this.facts, form,
      el('h3', {}, 'Executor'), this.executor);
    this.edited = false;
    for (const input of [this.scheduler, this.estimator, this.week]) {
      input.addEventListener('input', () => { this.edited = true; });
    }
  }

  show(s) {
    const fact = (k, v) => [el('dt', {}, k), el('dd', {}, v === null || v === undefined ? '-' : String(v))];
    const n = s.network || {};
    this.facts.replaceChildren(
      ...fact('In use', `${s.scheduler} with ${s.estimator} estimation${s.shared ? ' (chosen for the cluster)' : ' (configured)'}`),
      ...fact('Network', `${n.racks} racks, circuit ${n.circuitGbps} Gb/s, packet ${n.packetGbps} Gb/s, week ${n.weekMicros} us, `
        + `night ${n.nightMicros} us, minimum day ${n.minDayMicros} us, time x${n.timeScale}`),
      ...fact('Scheduling', s.schedulingHere ? 'on this instance' : `on instance ${s.publishedBy ?? '-'}`),
      ...fact('Last error', s.error ? `${s.error} (${s.errorAt}; ${s.errors} in all)` : 'none'));
    if (!this.edited) {
      this.scheduler.value = s.scheduler;
      this.estimator.value = s.estimator;
      this.week.value = s.fixedWeek ? JSON.stringify(s.fixedWeek) : '';
    }
    this.executor.textContent = s.executor ? JSON.stringify(s.executor, null, 2)
      : 'No executor: no fabric is configured (etc/io.heliograph.circuit.cfg).';
  }

  async submit() {
    const body = { scheduler: this.scheduler.value, estimator: this.estimator.value };
    const text = this.week.value.trim();
    if (text && body.scheduler === 'fixed') {
      try {
        body.fixedWeek = JSON.parse(text);
      } catch (e) {
        this.say(`The fixed week is not JSON: ${e.message}`, true);
        return;
      }
    }
    try {
      await this.api.put('/api/v1/circuit/scheduler', body);
      this.edited = false;
      this.say(`Now ${body.scheduler} with ${body.estimator}, from the next week computed.`, false);
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
