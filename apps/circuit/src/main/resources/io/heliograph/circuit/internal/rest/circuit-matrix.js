// Rack-by-rack matrices: a heat map (source rack by row, destination rack by column, the darker the
// more bytes), and per rack pair the circuit's share of the week's bytes against the packet switch's.

import { el, bytes } from '/ui/dom.js';

export function heatMap(title, matrix) {
  if (!matrix || !matrix.length) {
    return el('figure', { class: 'circuit-heat' }, el('figcaption', {}, title), el('p', { class: 'hint' }, 'none yet'));
  }
  const max = Math.max(1, ...matrix.flat());
  const n = matrix.length;
  const head = el('tr', {}, el('th', {}, 'from \\ to'), ...Array.from({ length: n }, (_, j) => el('th', {}, String(j))));
  const rows = matrix.map((row, i) => el('tr', {}, el('th', {}, String(i)),
    ...row.map((v, j) => el('td', { class: i === j ? 'circuit-self' : 'circuit-cell',
      style: i === j ? '' : `--heat: ${(v / max).toFixed(3)}`, title: `${i} \u2192 ${j}: ${bytes(v)}` },
    v ? bytes(v) : ''))));
  return el('figure', { class: 'circuit-heat' }, el('figcaption', {}, title),
    el('table', {}, el('thead', {}, head), el('tbody', {}, ...rows)));
}

export function utilisation(circuit, leftover) {
  const rows = [];
  let circuitSum = 0;
  let packetSum = 0;
  circuit.forEach((row, i) => row.forEach((c, j) => {
    const p = leftover[i][j];
    circuitSum += c;
    packetSum += p;
    if (c + p > 0) {
      const share = c / (c + p);
      rows.push(el('tr', {}, el('td', {}, `${i} \u2192 ${j}`), el('td', { class: 'num' }, bytes(c)),
        el('td', { class: 'num' }, bytes(p)),
        el('td', {}, el('span', { class: 'circuit-share', style: `--share: ${share.toFixed(3)}` }),
          ` ${(100 * share).toFixed(1)} %`)));
    }
  }));
  const total = circuitSum + packetSum;
  return el('div', {},
    el('p', {}, total ? `The circuits carry ${(100 * circuitSum / total).toFixed(1)} % of the week's demand `
      + `(${bytes(circuitSum)} by circuit, ${bytes(packetSum)} left to the packet switch).` : 'No demand this week.'),
    rows.length ? el('table', { class: 'circuit-use-table' },
      el('thead', {}, el('tr', {}, el('th', {}, 'Pair'), el('th', {}, 'Circuit'), el('th', {}, 'Packet'), el('th', {}, 'Circuit share'))),
      el('tbody', {}, ...rows)) : '');
}
