// The web UI's cluster page (registered by io.heliograph.webui.cluster.ClusterPage): the controller
// instances of the cluster and which one is master of each switch, from /api/v1/cluster. The operator
// moves a switch's mastership to another instance connected to it (its row's "Move to") or spreads them
// all evenly (Rebalance); each answers once the switches have confirmed their new masters. Read again
// every 2 s, when a switch connects or disconnects, and when the event stream reconnects.

import { el, stylesheet } from '/ui/dom.js';
import { clockNow } from '/ui/switches/format.js';
import { debounced, keepFresh } from '/ui/switches/refresh.js';
import { StatusBar } from '/ui/switches/status-bar.js';
import { InstanceTable } from '/ui/cluster/instance-table.js';
import { MastershipTable } from '/ui/cluster/mastership-table.js';

const REFRESH_MS = 2000;

export async function render(element, api) {
  stylesheet('/ui/switches/switches.css');
  stylesheet('/ui/cluster/cluster.css');
  const connection = el('p', { class: 'hg-cluster-connection', role: 'status' });
  const instances = new InstanceTable();
  const masterships = new MastershipTable(api, () => refresh());
  let refresh = null;

  const load = async () => {
    const [cluster, switches] = await Promise.allSettled([api.get('/api/v1/cluster'),
      api.get('/api/v1/cluster/masterships')]);
    const problems = [];
    if (cluster.status === 'fulfilled') {
      instances.show(cluster.value);
      masterships.know(cluster.value);
      showConnection(connection, cluster.value);
    } else {
      instances.show(null);
      connection.replaceChildren();
      problems.push(`Cannot read the cluster: ${cluster.reason.message}.`);
    }
    if (switches.status === 'fulfilled') {
      masterships.show(switches.value);
    } else {
      masterships.show(null);
      problems.push(`Cannot read the masterships: ${switches.reason.message}.`);
    }
    if (problems.length) status.failed(problems.join(' '));
    else status.ok(`${cluster.value.instances.length} instance${cluster.value.instances.length === 1 ? '' : 's'}`
      + ` · ${switches.value.length} switch${switches.value.length === 1 ? '' : 'es'} · read at ${clockNow()}`);
  };
  const status = new StatusBar(() => refresh());
  refresh = keepFresh(element, load, () => REFRESH_MS);
  const soon = debounced(() => refresh(), 300);
  api.events.on('switch', (e) => { if (e.action !== 'changed') soon(); });
  api.events.on('open', soon);

  element.append(el('h1', {}, 'Cluster'), status.element, connection,
    el('h2', {}, 'Instances'), instances.element,
    el('h2', {}, 'Masterships'), masterships.toolbar, masterships.element);
  await refresh();
}

/** This instance's ZooKeeper session: while it is down the instance is master of no switch. */
function showConnection(element, cluster) {
  if (cluster.connected) {
    element.className = 'hint hg-cluster-connection';
    element.replaceChildren(`This instance, ${cluster.local}, is connected to ZooKeeper at `,
      el('code', {}, cluster.zookeeper), '.');
  } else {
    element.className = 'error hg-cluster-connection';
    element.replaceChildren(`This instance, ${cluster.local}, has no ZooKeeper session with `,
      el('code', {}, cluster.zookeeper), ': it is master of no switch until it reconnects, and what it shows'
        + ' is as it last saw the cluster.');
  }
}
