// A small line of recent values (a port's traffic), drawn as SVG; its title gives the latest and
// highest value so the operator can read numbers, not only a shape.

const NS = 'http://www.w3.org/2000/svg';
const WIDTH = 96;
const HEIGHT = 20;

/** An SVG of values (oldest first) scaled to the highest; label(v) writes a value for the title. */
export function sparkline(values, label) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('class', 'hg-sparkline');
  svg.setAttribute('width', WIDTH);
  svg.setAttribute('height', HEIGHT);
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  svg.dataset.points = String(values.length);
  if (values.length < 2) return svg;
  const top = Math.max(...values);
  const step = WIDTH / (values.length - 1);
  const y = (v) => (top > 0 ? HEIGHT - 1 - (v / top) * (HEIGHT - 2) : HEIGHT - 1).toFixed(1);
  const line = document.createElementNS(NS, 'polyline');
  line.setAttribute('points', values.map((v, i) => (i * step).toFixed(1) + ',' + y(v)).join(' '));
  const title = document.createElementNS(NS, 'title');
  title.textContent = `latest ${label(values[values.length - 1])}, highest ${label(top)} (${values.length} samples)`;
  svg.append(title, line);
  return svg;
}
