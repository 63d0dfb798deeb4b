// The web UI's cluster page (registered by io.heliograph.webui.cluster.ClusterPage): the controller
// instances of the cluster and which one is master of each switch, from /api/v1/cluster. The operator
// moves a switch's mastership to another instance connected to it (its row's "Move to") or spreads them
// all evenly (Rebalance); each answers once the switches have confirmed their new masters. Read again
// every 2 s, when a switch connects or disconnects, and when the event stream reconnects.
// A controller running alone (the embedded ZooKeeper's default) has nothing to move or compare: the
// page then says "single instance" and what the instance is, and leaves out the tables of ids and
// generations, which it shows again as soon as a second instance joins.

import { el, stylesheet } from '/ui/dom.js';
import { age, clockNow, localTime } from '/ui/switches/format.js';
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
  const single = el('section', { class: 'hg-single-instance', hidden: true });
  const several = el('div', { class: 'hg-cluster-tables' });
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
    const alone = cluster.status === 'fulfilled' && cluster.value.instances.length === 1;
    single.hidden = !alone;
    several.hidden = alone;
    if (alone) {
      showSingle(single, cluster.value, switches.status === 'fulfilled' ? switches.value : null);
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

  several.append(el('h2', {}, 'Instances'), instances.element,
    el('h2', {}, 'Masterships'), masterships.toolbar, masterships.element);
  element.append(el('h1', {}, 'Cluster'), status.element, connection, single, several);
  await refresh();
}

/** One instance: what it is and what it controls, in words; the switches it masters are those it has. */
function showSingle(element, cluster, switches) {
  const self = cluster.instances[0];
  const mastered = switches ? switches.filter((m) => m.master === self.id).length : null;
  const rows = [
    ['Instance', el('span', { class: 'hg-instance-id' }, self.id)],
    ['Version', self.version || '—'],
    ['Started', el('span', { title: self.started ? age((Date.now() - Date.parse(self.started)) / 1000) + ' ago' : '' },
      localTime(self.started))],
    ['OpenFlow', el('code', {}, self.openflowAddress || '—')],
    ['Web and REST', el('code', {}, self.httpAddress || '—')],
    ['Switches', switches === null ? 'cannot be read now'
      : `master of ${mastered} of ${switches.length} switch${switches.length === 1 ? '' : 'es'}`],
  ];
  element.replaceChildren(
    el('p', { class: 'hg-single-note' }, el('strong', {}, 'Single instance.'), ' This controller runs alone: it is'
      + ' master of every switch connected to it, and there is no other instance to move a switch to. Start'
      + ' another instance with the same ZooKeeper (', el('code', {}, '--zookeeper'), ') to make a cluster; this'
      + ' page then lists the instances and each switch\'s master.'),
    el('dl', { class: 'hg-single-facts' }, ...rows.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)])));
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
