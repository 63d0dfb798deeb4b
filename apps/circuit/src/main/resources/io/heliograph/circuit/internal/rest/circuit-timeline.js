// A week as a timeline: one block per day, as wide as its circuit time, followed by its night (grey); a
// day's title lists its matching (input rack -> output port), dummy ports marked. Below, the matchings
// as a table, one row per day.

import { el } from '/ui/dom.js';

export class Timeline {
  constructor() {
    this.element = el('div', { class: 'circuit-timeline' });
  }

  show(current, next) {
    if (!current) {
      this.element.replaceChildren(el('p', { class: 'hint' }, 'No week computed yet.'));
      return;
    }
    this.element.replaceChildren(
      weekBar(current, 'current'),
      next ? weekBar(next, 'next') : el('p', { class: 'hint' }, 'The next week is computed halfway through this one.'),
      matchings(current.plan));
  }
}

export function weekBar(week, label) {
  const plan = week.plan;
  const total = plan.weekMicros || 1;
  const bar = el('div', { class: 'circuit-bar', role: 'img',
    'aria-label': `${label} week ${week.week}: ${plan.days.length} days` });
  plan.days.forEach((day, i) => {
    const pairs = day.sourceOf.map((src, port) => `${src}\u2192${port}${day.dummy?.[port] ? ' (dummy)' : ''}`).join(', ');
    bar.append(
      el('div', { class: 'circuit-day', style: `flex-grow: ${day.upMicros / total}`,
        title: `day ${i}: ${day.upMicros} us: ${pairs}` }, `${i}`),
      el('div', { class: 'circuit-night', style: `flex-grow: ${plan.nightMicros / total}`,
        title: `night: ${plan.nightMicros} us` }));
  });
  return el('div', { class: 'circuit-week-row' },
    el('div', { class: 'circuit-week-label' },
      `${label} week ${week.week} (${week.scheduler}, ${week.estimator}), ${plan.days.length} days, ${plan.weekMicros} us`),
    bar);
}

function matchings(plan) {
  const n = plan.days.length ? plan.days[0].sourceOf.length : 0;
  const head = el('tr', {}, el('th', {}, 'Day'), el('th', {}, 'us'),
    ...Array.from({ length: n }, (_, j) => el('th', {}, `port ${j}`)));
  const rows = plan.days.map((day, i) => el('tr', {}, el('td', {}, String(i)), el('td', { class: 'num' }, String(day.upMicros)),
    ...day.sourceOf.map((src, j) => el('td', { class: day.dummy?.[j] ? 'circuit-dummy' : '' }, `from ${src}`))));
  return el('table', { class: 'circuit-matchings' }, el('thead', {}, head), el('tbody', {}, ...rows));
}
