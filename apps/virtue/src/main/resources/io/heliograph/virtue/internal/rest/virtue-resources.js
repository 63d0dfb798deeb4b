// The resource table's rows at one instant: every link of the EDF, VM and PM with what the snapshot
// measured of it (utilisation or CPU, rates), and which rows a region of the topology holds. Pure
// functions, linear in the experiment's size.

/**
 * One row per link, VM and PM: {key, kind, id, where, use, rate, capacity, note}. `use` is a link's
 * utilisation or a server's CPU (0..1, null when not measured); `rate` is bits per second (a link's
 * rate, a VM's NIC sent + received).
 */
export function resourceRows(edf, topology, snapshot) {
  const linkSample = new Map((snapshot?.links ?? []).map((l) => [l.id, l]));
  const vmSample = new Map((snapshot?.vms ?? []).map((v) => [v.id, v]));
  const pmSample = new Map((snapshot?.pms ?? []).map((p) => [p.id, p]));
  const rows = [];
  for (const link of edf.links ?? []) {
    const s = linkSample.get(link.id);
    rows.push({ key: `link ${link.id}`, kind: 'link', id: link.id,
      where: `${link.sourceId}:${link.sourcePort} → ${link.destinationId}:${link.destinationPort}`,
      use: numberOrNull(s?.utilisation), rate: numberOrNull(s?.bitsPerSecond), capacity: numberOrNull(s?.capacity),
      source: link.sourceId, destination: link.destinationId });
  }
  for (const pm of edf.pms ?? []) {
    for (const vm of Object.values(pm.vms ?? {})) {
      const s = vmSample.get(vm.id);
      const sent = numberOrNull(s?.nicSent);
      const received = numberOrNull(s?.nicReceived);
      rows.push({ key: `vm ${vm.id}`, kind: 'VM', id: vm.id, where: s?.pm ?? pm.id,
        use: numberOrNull(s?.cpu), rate: sent === null && received === null ? null : (sent ?? 0) + (received ?? 0),
        capacity: null, app: appName(vm.parameters?.APP) });
    }
  }
  for (const pm of edf.pms ?? []) {
    const s = pmSample.get(pm.id);
    rows.push({ key: `pm ${pm.id}`, kind: 'PM', id: pm.id, where: topology.switchOfPm.get(pm.id) ?? s?.switch ?? '',
      use: numberOrNull(s?.cpu), rate: null, capacity: null });
  }
  return rows;
}

function numberOrNull(v) {
  return typeof v === 'number' && !Number.isNaN(v) ? v : null;
}

/** org.virtuesource.shared.app.impl.ClientApplication -> ClientApplication */
function appName(app) {
  return typeof app === 'string' ? app.slice(app.lastIndexOf('.') + 1) : '';
}

/**
 * Whether a row is in a region of the graph (what TopologyGraph's onRegion reports: switches by dpid,
 * hosts by MAC, links by their ends): a PM when its switch is, a VM when its host is, a link when the
 * cable it is one direction of is. A null region holds everything.
 */
export function regionFilter(topology, region) {
  if (!region) {
    return () => true;
  }
  const switches = new Set(region.switches.map((d) => d.toLowerCase()));
  const vms = new Set(region.hosts.map((mac) => topology.vmOfMac.get(mac.toLowerCase())).filter(Boolean));
  const vmsLower = new Set([...vms].map((v) => v.toLowerCase()));
  const cables = new Set();
  for (const l of region.links) {
    cables.add(cableKey(l.a.dpid, l.a.port, l.b.dpid, l.b.port));
  }
  return (row) => {
    if (row.kind === 'PM') {
      const sw = topology.switchOfPm.get(row.id);
      return sw !== undefined && sw !== null && switches.has(sw.toLowerCase());
    }
    if (row.kind === 'VM') {
      return vms.has(row.id);
    }
    const [src, dst] = linkEnds(row.id);
    if (src === null) {
      return false;
    }
    // a VM's own link goes with the VM
    return cables.has(cableKey(src.dpid, src.port, dst.dpid, dst.port)) || vmsLower.has(src.dpid) || vmsLower.has(dst.dpid);
  };
}

/** The ends of an EDF link id "<src>:<port>-><dst>:<port>" (dpids hold colons: the port is after the last). */
export function linkEnds(id) {
  const arrow = id.indexOf('->');
  if (arrow < 0) {
    return [null, null];
  }
  const end = (text) => {
    const colon = text.lastIndexOf(':');
    return { dpid: text.slice(0, colon).toLowerCase(), port: text.slice(colon + 1) };
  };
  return [end(id.slice(0, arrow)), end(id.slice(arrow + 2))];
}

function cableKey(aDpid, aPort, bDpid, bPort) {
  const a = `${String(aDpid).toLowerCase()}/${aPort}`;
  const b = `${String(bDpid).toLowerCase()}/${bPort}`;
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}
