// The web UI's topology page (registered by io.heliograph.webui.topology.TopologyPage): the graph of
// the controller's switches, links and hosts, refreshed every few seconds while the page is open.
// The shell loads this module from /ui/pages/topology.js, so the graph's modules are imported by
// their own absolute address.

import { TopologyGraph } from '/ui/topology/topology-graph.js';
import { fetchTopology } from '/ui/topology/rest-topology.js';

const REFRESH_MS = 5000;

export async function render(element, api) {
  const status = document.createElement('p');
  status.className = 'hg-topology-status';
  status.textContent = 'Loading the topology…';
  const holder = document.createElement('div');
  holder.style.height = 'calc(100vh - 10rem)';
  holder.style.minHeight = '360px';
  element.append(status, holder);
  const graph = new TopologyGraph(holder);
  let shownJson = null;

  const refresh = async () => {
    if (!holder.isConnected) {
      graph.destroy(); // the operator went to another page
      return;
    }
    try {
      const { model, notes } = await fetchTopology(api);
      const json = JSON.stringify(model);
      if (json !== shownJson) { // lay out again only what changed
        const shown = await graph.setModel(model);
        shownJson = json;
        status.textContent = `${shown.switches} switches, ${shown.links} links, ${shown.hosts} hosts`
            + (notes.length > 0 ? ` (not shown: ${notes.join('; ')})` : '');
      }
    } catch (e) {
      status.textContent = `Cannot show the topology: ${e.message}`;
    }
    setTimeout(refresh, REFRESH_MS);
  };
  await refresh();
}
