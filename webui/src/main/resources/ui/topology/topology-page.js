// The web UI's topology page (registered by io.heliograph.webui.topology.TopologyPage): the graph of
// the controller's switches, links and hosts. It reloads when the controller's live events say a
// switch, link or host changed, and when the event stream (re)connects; a burst of events (a fat tree
// coming up: thousands of them) becomes one reload per SETTLE_MS. A slow poll stays, for what has no
// events: link utilisation (port rates move all the time) and anything an app changes without
// publishing. The shell loads this module from /ui/pages/topology.js, so the graph's modules are
// imported by their own absolute address.

import { TopologyGraph } from '/ui/topology/topology-graph.js';
import { fetchTopology } from '/ui/topology/rest-topology.js';

const SETTLE_MS = 300;
const POLL_MS = 15000;
const RELOAD_ON = ['switch', 'link', 'host', 'open'];

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

  const show = async () => {
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
  };

  // One reload at a time; what arrives meanwhile asks for one more after it.
  let loading = null;
  let again = false;
  let pending = null;
  let poll = null;
  const reload = async () => {
    pending = null;
    if (!holder.isConnected) { // the operator went to another page
      clearInterval(poll);
      graph.destroy();
      return;
    }
    if (loading) {
      again = true;
      return;
    }
    loading = show();
    await loading;
    loading = null;
    if (again) {
      again = false;
      soon();
    }
  };
  // Not a trailing debounce: a long burst would then show nothing until it ends.
  const soon = () => { pending = pending || setTimeout(reload, SETTLE_MS); };

  for (const type of RELOAD_ON) api.events.on(type, soon);
  poll = setInterval(soon, POLL_MS);
  await reload();
}
