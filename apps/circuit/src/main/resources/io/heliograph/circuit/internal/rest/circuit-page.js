// The web UI's circuit page, contributed by the circuit app (io.heliograph.circuit.internal.rest.CircuitPage,
// served at /ui/pages/circuit.js; its parts beside it at /ui/pages/circuit/<name>.js). It shows what
// /api/v1/circuit serves and refreshes every few seconds while open:
//   circuit-timeline.js   the current (and next) week as a timeline of days, with their matchings, and nights
//   circuit-matrix.js     rack-by-rack matrices as heat maps: the demand, circuit and packet (leftover) bytes
//   circuit-scheduler.js  the scheduler and estimator in use, a form to change them, the loop's errors and
//                         the executor's status

import { el, stylesheet } from '/ui/dom.js';
import { keepFresh } from '/ui/switches/refresh.js';
import { Timeline } from './circuit/circuit-timeline.js';
import { heatMap, utilisation } from './circuit/circuit-matrix.js';
import { SchedulerPanel } from './circuit/circuit-scheduler.js';

const BASE = '/api/v1/circuit';
const REFRESH_MS = 3000;

export async function render(element, api, rest) {
  stylesheet(new URL('./circuit/circuit.css', import.meta.url).pathname);
  let reload = () => {}; // loads at once, folded into one running load: keepFresh below
  const status = el('p', { class: 'circuit-status', role: 'status' });
  const timeline = new Timeline();
  const matrices = el('div', { class: 'circuit-matrices' });
  const use = el('div', { class: 'circuit-use' });
  const panel = new SchedulerPanel(api, () => reload());
  element.append(el('h1', {}, 'Circuit'), status, panel.element,
    el('section', { class: 'circuit-week' }, el('h2', {}, 'This week'), timeline.element),
    el('section', {}, el('h2', {}, 'Circuit and packet bytes'), use),
    el('section', {}, el('h2', {}, 'Demand'), matrices));

  async function refresh() {
    try {
      const [schedule, scheduler, demand] = await Promise.all([
        api.get(`${BASE}/schedule`), api.get(`${BASE}/scheduler`), api.get(`${BASE}/demand`)]);
      status.textContent = '';
      timeline.show(schedule.current, schedule.next);
      panel.show(scheduler);
      const week = schedule.current;
      use.replaceChildren(week ? utilisation(week.circuitBytes, week.leftoverBytes) : el('p', { class: 'hint' }, 'No week yet.'));
      matrices.replaceChildren(
        heatMap(`Demand of week ${demand.week ?? '-'} (${demand.estimator})`, demand.demand),
        heatMap('VOQ estimate now', demand.estimators?.voq),
        heatMap(`ADU estimate now (${demand.aduOpenFlows} open flows)`, demand.estimators?.adu));
    } catch (e) {
      status.textContent = `Cannot read the circuit app: ${e.message}`;
      status.classList.add('error');
    }
  }

  reload = keepFresh(element, refresh, () => REFRESH_MS);
  await reload();
}
