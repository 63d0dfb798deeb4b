// The web UI's VDN page, contributed by the VDN app (io.heliograph.vdn.internal.rest.VdnPage, served at
// /ui/pages/vdn.js; its parts beside it at /ui/pages/vdn/<name>.js). It shows what /api/v1/vdn serves and
// refreshes every few seconds while open:
//   vdn-decision.js  the latest central decision and the optimiser's knobs, with a form to change them
//   vdn-clusters.js  every cluster, and the RIB and FIB of the one selected (each entry's origin, version
//                    and evidence)
//   vdn-trees.js     a video's distribution trees on the topology, one colour per bitrate
// and the agents' join times and bitrates over time (/ui/chart.js).

import { el, stylesheet } from '/ui/dom.js';
import { TimeChart } from '/ui/chart.js';
import { keepFresh } from '/ui/switches/refresh.js';
import { DecisionPanel } from './vdn/vdn-decision.js';
import { ClusterPanel } from './vdn/vdn-clusters.js';
import { TreeView } from './vdn/vdn-trees.js';

const BASE = '/api/v1/vdn';
const REFRESH_MS = 3000;

export async function render(element, api) {
  stylesheet(new URL('./vdn/vdn.css', import.meta.url).pathname);
  let reload = () => {}; // loads at once, folded into one running load: keepFresh below
  const status = el('p', { class: 'vdn-status', role: 'status' });
  const decision = new DecisionPanel(api, () => reload());
  const clusters = new ClusterPanel(api);
  const trees = new TreeView(api);
  const joins = new TimeChart({ title: 'Median join time (request to first byte)', format: (v) => `${Math.round(v)} ms` });
  joins.element.dataset.figure = 'joinMillisMedian';
  const bitrates = new TimeChart({ title: 'Mean client bitrate', format: (v) => `${Math.round(v)} kbit/s` });
  bitrates.element.dataset.figure = 'bitrateKbpsMean';
  element.append(el('h1', {}, 'VDN'), status, decision.element, clusters.element, trees.element,
    el('section', { class: 'vdn-serving' }, el('h2', {}, 'Serving, by edge'),
      el('div', { class: 'vdn-charts' }, joins.element, bitrates.element)));

  async function refresh() {
    try {
      const [summary, knobs, list, serving] = await Promise.all([api.get(`${BASE}/decision`), api.get(`${BASE}/knobs`),
        api.get(`${BASE}/clusters`), api.get(`${BASE}/serving`)]);
      status.textContent = list.length ? '' : 'No topology yet: PUT one to /api/v1/vdn/topology.';
      status.classList.remove('error');
      decision.show(summary, knobs);
      await clusters.show(list);
      await trees.refresh(summary.version);
      joins.setSeries(series(serving, 'joinMillisMedian'));
      bitrates.setSeries(series(serving, 'bitrateKbpsMean'));
    } catch (e) {
      status.textContent = `Cannot read the VDN app: ${e.message}`;
      status.classList.add('error');
    }
  }

  reload = keepFresh(element, refresh, () => REFRESH_MS);
  await reload();
}

/** One line per cluster that published the figure: [[atMillis, value], ...]. */
export function series(serving, figure) {
  return Object.entries(serving.clusters ?? {})
    .map(([cluster, points]) => ({ name: cluster, points: points.filter((p) => typeof p[figure] === 'number')
      .map((p) => [p.atMillis, p[figure]]) }))
    .filter((s) => s.points.length > 0);
}
