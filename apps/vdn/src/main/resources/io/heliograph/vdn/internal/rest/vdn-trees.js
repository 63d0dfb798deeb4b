// A video's distribution trees on the topology: the tiers as columns (sources, reflectors, edges, client
// groups), every link drawn faintly and the links carrying each bitrate of the video in that bitrate's
// colour; served client groups filled, unserved ones outlined in red. Drawn as SVG from
// /api/v1/vdn/topology and /api/v1/vdn/trees/{video}.

import { el } from '/ui/dom.js';
import { PALETTE } from '/ui/chart.js';

const TIERS = ['source', 'reflector', 'edge', 'client-group'];
const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  for (const child of children) node.append(child);
  return node;
}

export class TreeView {
  constructor(api) {
    this.api = api;
    this.video = el('input', { name: 'video', placeholder: 'video', size: 16 });
    this.message = el('p', { class: 'vdn-message', role: 'status' });
    this.drawing = el('div', { class: 'vdn-tree-drawing' });
    this.legend = el('div', { class: 'time-chart-legend vdn-tree-legend' });
    const form = el('form', { class: 'vdn-tree-form', onsubmit: (e) => { e.preventDefault(); this.refresh(this.version, true); } },
      el('label', {}, 'Video ', this.video), el('button', { type: 'submit' }, 'Show'));
    this.element = el('section', { class: 'vdn-trees' }, el('h2', {}, 'Distribution trees'), form, this.message,
      this.legend, this.drawing);
    this.topology = null;
    this.shown = null;
  }

  /** Draws the chosen video's trees again when the decision's version changed (or when asked). */
  async refresh(version, force = false) {
    this.version = version;
    const video = this.video.value.trim();
    if (!video || (!force && this.shown === `${video}@${version}`)) return;
    try {
      this.topology = this.topology && !force ? this.topology : await this.api.get('/api/v1/vdn/topology');
      const trees = await this.api.get(`/api/v1/vdn/trees/${encodeURIComponent(video)}`);
      this.draw(trees);
      this.shown = `${video}@${version}`;
      this.message.textContent = `Decision ${trees.version}.`;
      this.message.classList.remove('error');
    } catch (e) {
      this.shown = null;
      this.drawing.replaceChildren();
      this.message.textContent = e.status === 404 ? e.message : `Cannot draw the trees: ${e.message}`;
      this.message.classList.toggle('error', e.status !== 404);
    }
  }

  draw(trees) {
    const columns = TIERS.map((t) => this.topology.nodes.filter((n) => n.tier === t));
    const height = Math.max(120, 18 * Math.max(...columns.map((c) => c.length)));
    const width = 720;
    const at = new Map();
    columns.forEach((nodes, i) => nodes.forEach((n, j) => at.set(n.id,
      [40 + i * ((width - 80) / (TIERS.length - 1)), 14 + (j + 0.5) * ((height - 28) / nodes.length)])));
    const picture = svg('svg', { viewBox: `0 0 ${width} ${height}`, width, height, class: 'vdn-tree' });
    for (const link of this.topology.links) {
      const [a, b] = [at.get(link.from), at.get(link.to)];
      picture.append(svg('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: 'vdn-link' }));
    }
    const bitrates = Object.keys(trees.bitrates).sort((x, y) => Number(x) - Number(y));
    const served = new Set();
    const unserved = new Set();
    bitrates.forEach((bitrate, i) => {
      const tree = trees.bitrates[bitrate];
      for (const name of tree.links) {
        const [from, to] = name.split('->');
        const [a, b] = [at.get(from), at.get(to)];
        if (a && b) {
          picture.append(svg('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: 'vdn-carried',
            stroke: PALETTE[i % PALETTE.length], 'data-link': name, 'data-bitrate': bitrate }));
        }
      }
      Object.keys(tree.served).forEach((g) => served.add(g));
      tree.unserved.forEach((g) => unserved.add(g));
    });
    for (const [id, [x, y]] of at) {
      const state = served.has(id) ? 'served' : unserved.has(id) ? 'unserved' : 'idle';
      picture.append(svg('circle', { cx: x, cy: y, r: 5, class: `vdn-node vdn-${state}`, 'data-node': id },
        svg('title', {}, document.createTextNode(id))));
    }
    this.legend.replaceChildren(...bitrates.map((b, i) => el('span', { class: 'time-chart-key',
      style: `--key-colour: ${PALETTE[i % PALETTE.length]}` }, `${b} kbit/s: ${Object.keys(trees.bitrates[b].served).length} served, `
      + `${trees.bitrates[b].unserved.length} unserved`)));
    this.drawing.replaceChildren(picture);
  }
}
