// An experiment's topology as the topology graph draws it, and a sample's utilisations as the graph
// colours them. The EDF's switches and the links between them are the graph's switches and links;
// a PM is its software switch (the i-th PM's node is the i-th software switch, as the EDF says); a VM
// is a host attached to its PM's switch at the port of the link that joins them, named by its MAC
// parameter. Pure functions: the page and the tests call them alike.

/** The graph model of an EDF, with the maps the page needs to go from EDF ids to graph items. */
export function topologyOf(edf) {
  const switches = edf.switches ?? [];
  const software = switches.filter((s) => s.software);
  const pms = edf.pms ?? [];
  const switchOfPm = new Map(pms.map((pm, i) => [pm.id, software[i]?.id ?? null]));
  const pmOfSwitch = new Map([...switchOfPm].filter(([, sw]) => sw !== null).map(([pm, sw]) => [sw, pm]));
  const pmOfVm = new Map();
  const macOfVm = new Map();
  for (const pm of pms) {
    for (const vm of Object.values(pm.vms ?? {})) {
      pmOfVm.set(vm.id, pm.id);
      macOfVm.set(vm.id, macOf(vm));
    }
  }
  const switchIds = new Set(switches.map((s) => s.id));
  const links = [];
  const portOfVm = new Map();
  for (const link of edf.links ?? []) {
    if (switchIds.has(link.sourceId) && switchIds.has(link.destinationId)) {
      links.push({ id: link.id, src: { dpid: link.sourceId, port: link.sourcePort },
        dst: { dpid: link.destinationId, port: link.destinationPort } });
    } else if (pmOfVm.has(link.sourceId) && switchIds.has(link.destinationId)) {
      portOfVm.set(link.sourceId, link.destinationPort);
    } else if (pmOfVm.has(link.destinationId) && switchIds.has(link.sourceId)) {
      portOfVm.set(link.destinationId, link.sourcePort);
    }
  }
  const hosts = [];
  for (const [vm, pm] of pmOfVm) {
    const sw = switchOfPm.get(pm);
    hosts.push({ mac: macOfVm.get(vm), ips: [], vm, pm,
      attachment: sw ? { dpid: sw, port: portOfVm.get(vm) ?? 0 } : null });
  }
  const vmOfMac = new Map([...macOfVm].map(([vm, mac]) => [mac.toLowerCase(), vm]));
  return {
    model: {
      switches: switches.map((s) => (pmOfSwitch.has(s.id) ? { dpid: s.id, pm: pmOfSwitch.get(s.id) } : { dpid: s.id })),
      links: links.map(({ src, dst, id }) => ({ src, dst, link: id })),
      hosts,
    },
    switchOfPm, pmOfSwitch, pmOfVm, macOfVm, vmOfMac,
    linkIds: new Set(links.map((l) => l.id)),
  };
}

/** A VM's MAC (its MAC parameter, lower case), or a stand-in name when the EDF gives none. */
function macOf(vm) {
  const mac = vm.parameters?.MAC;
  return typeof mac === 'string' && mac !== '' ? mac.toLowerCase() : `vm:${vm.id}`;
}

/**
 * The utilisations of a snapshot for graph.setUtilisation: links between switches by their
 * utilisation, PMs' switches and VMs by their CPU. What the snapshot does not measure is left out,
 * and the graph shows it as not measured.
 */
export function utilisationOf(topology, snapshot) {
  const links = [];
  for (const l of snapshot?.links ?? []) {
    if (topology.linkIds.has(l.id) && typeof l.utilisation === 'number') {
      links.push({ src: { dpid: l.source, port: l.sourcePort }, dst: { dpid: l.destination, port: l.destinationPort },
        utilisation: l.utilisation });
    }
  }
  const switches = [];
  for (const pm of snapshot?.pms ?? []) {
    const sw = topology.switchOfPm.get(pm.id) ?? pm.switch;
    if (sw && typeof pm.cpu === 'number') {
      switches.push({ dpid: sw, utilisation: pm.cpu });
    }
  }
  const hosts = [];
  for (const vm of snapshot?.vms ?? []) {
    const mac = topology.macOfVm.get(vm.id);
    if (mac && typeof vm.cpu === 'number') {
      hosts.push({ mac, utilisation: vm.cpu });
    }
  }
  return { links, switches, hosts };
}

/**
 * The predicted utilisations of an optimisation ({linkId: u} before or after, {pmId: u} CPU) for
 * graph.setUtilisation; VMs are not coloured (a plan predicts no VM's CPU).
 */
export function predictedUtilisation(topology, edf, linkUse, pmCpu) {
  const byId = new Map((edf.links ?? []).map((l) => [l.id, l]));
  const links = [];
  for (const [id, u] of Object.entries(linkUse ?? {})) {
    const l = byId.get(id);
    if (l && topology.linkIds.has(id) && typeof u === 'number') {
      links.push({ src: { dpid: l.sourceId, port: l.sourcePort }, dst: { dpid: l.destinationId, port: l.destinationPort },
        utilisation: u });
    }
  }
  const switches = [];
  for (const [pm, u] of Object.entries(pmCpu ?? {})) {
    const sw = topology.switchOfPm.get(pm);
    if (sw && typeof u === 'number') {
      switches.push({ dpid: sw, utilisation: u });
    }
  }
  return { links, switches, hosts: [] };
}
