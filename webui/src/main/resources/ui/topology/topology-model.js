// The graph's model: switches, links and hosts as the REST API gives them (plain strings), checked
// and indexed for drawing. Switches are sorted by datapath id and referred to by index from then on.
//
// Accepted input (extra fields are kept in `info` and shown in the details):
//   { switches: [{dpid, utilisation?: 0..1, ...}],
//     links:    [{src: {dpid, port}, dst: {dpid, port}, utilisation?: 0..1}],
//     hosts:    [{mac, ips: [...], attachment: {dpid, port}, utilisation?: 0..1}] }
// A link's two directions (as /api/v1/topology/links lists them) become one edge whose utilisation is
// the busier direction's. Switches named only by a link or a host attachment are added. A switch's or
// host's utilisation (a server's CPU, say) colours it as a link's colours the link; without one it keeps
// its role's colour. applyUtilisation changes the utilisations of a built model without laying it out again.

const YIELD_EVERY = 512;

/** A datapath id in its canonical form (16 lower-case hex digits in colon pairs), or null if `value` is not one. */
export function canonicalDpid(value) {
  let hex;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
    hex = value.toString(16);
  } else if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (/^([0-9a-f]{2}:){7}[0-9a-f]{2}$/.test(text)) {
      return text;
    }
    if (/^0x[0-9a-f]{1,16}$/.test(text)) {
      hex = text.slice(2);
    } else if (/^[0-9a-f]{16}$/.test(text)) {
      hex = text;
    } else {
      return null;
    }
  } else {
    return null;
  }
  if (hex.length > 16) {
    return null;
  }
  return hex.padStart(16, '0').match(/../g).join(':');
}

/** The dpid without its leading zero bytes: 00:00:00:00:00:00:01:0a -> 01:0a. */
export function shortDpid(dpid) {
  return dpid.replace(/^(00:)+(?=..:..)/, '');
}

const MAX_LABEL = 32;

/**
 * What a switch is called on the graph: the datapath description its switch sent (what the operator
 * named it, e.g. OVS's other-config:dp-desc), or its full dpid when it sent none or a placeholder.
 * A short dpid ("01:0a") names nothing an operator can look up.
 */
export function switchLabel(dpid, info) {
  const described = typeof info?.description?.datapath === 'string' ? info.description.datapath.trim() : '';
  if (described === '' || /^(none|n\/a|unknown)$/i.test(described)) {
    return dpid;
  }
  return described.length > MAX_LABEL ? `${described.slice(0, MAX_LABEL - 1)}…` : described;
}

/** Builds the model; throws an Error naming the first bad field. Run it with runInSlices. */
export function* buildModel(input) {
  if (input === null || typeof input !== 'object') {
    throw new Error('topology model: expected an object with switches, links and hosts');
  }
  const rawSwitches = listOf(input, 'switches');
  const rawLinks = listOf(input, 'links');
  const rawHosts = listOf(input, 'hosts');

  const switchInfo = new Map(); // dpid -> raw switch object (or null when only referred to)
  for (let i = 0; i < rawSwitches.length; i++) {
    const raw = rawSwitches[i];
    const dpid = requireDpid(typeof raw === 'object' && raw !== null ? raw.dpid : raw, `switches[${i}].dpid`);
    if (typeof raw === 'object' && raw !== null) {
      utilisationOf(raw, `switches[${i}]`);
    }
    switchInfo.set(dpid, typeof raw === 'object' ? raw : null);
    if (i % YIELD_EVERY === 0) yield;
  }
  const linkEnds = [];
  for (let i = 0; i < rawLinks.length; i++) {
    const raw = rawLinks[i];
    const src = endpoint(raw?.src, `links[${i}].src`);
    const dst = endpoint(raw?.dst, `links[${i}].dst`);
    const utilisation = utilisationOf(raw, `links[${i}]`);
    linkEnds.push({ src, dst, utilisation, info: raw });
    noteSwitch(switchInfo, src.dpid);
    noteSwitch(switchInfo, dst.dpid);
    if (i % YIELD_EVERY === 0) yield;
  }
  const hostEntries = [];
  for (let i = 0; i < rawHosts.length; i++) {
    const raw = rawHosts[i];
    if (raw === null || typeof raw !== 'object' || typeof raw.mac !== 'string' || raw.mac === '') {
      throw new Error(`hosts[${i}].mac: expected a MAC address string`);
    }
    const at = raw.attachment ?? (Array.isArray(raw.attachmentPoints) ? raw.attachmentPoints[0] : null);
    const attachment = at == null ? null : endpoint(at, `hosts[${i}].attachment`);
    if (attachment) {
      noteSwitch(switchInfo, attachment.dpid);
    }
    hostEntries.push({ mac: raw.mac.toLowerCase(), ips: ipsOf(raw, i), attachment, info: raw,
      utilisation: utilisationOf(raw, `hosts[${i}]`) });
    if (i % YIELD_EVERY === 0) yield;
  }

  const dpids = [...switchInfo.keys()].sort();
  yield;
  const indexOf = new Map(dpids.map((dpid, i) => [dpid, i]));
  const switches = dpids.map((dpid, index) => ({
    index, dpid, label: switchLabel(dpid, switchInfo.get(dpid)), info: switchInfo.get(dpid), degree: 0, hostCount: 0,
    utilisation: switchInfo.get(dpid)?.utilisation ?? switchInfo.get(dpid)?.utilization ?? null,
  }));
  yield;

  const links = [];
  const linkByEnds = new Map();
  for (let i = 0; i < linkEnds.length; i++) {
    const { src, dst, utilisation, info } = linkEnds[i];
    const { a, b, key } = cable(indexOf, src, dst);
    const known = linkByEnds.get(key);
    if (known) {
      if (utilisation !== null) {
        known.utilisation = Math.max(known.utilisation ?? 0, utilisation);
      }
    } else {
      const link = { index: links.length, a: a.index, aPort: a.port, b: b.index, bPort: b.port, utilisation, info };
      linkByEnds.set(key, link);
      links.push(link);
    }
    if (i % YIELD_EVERY === 0) yield;
  }

  const hosts = hostEntries.map((h, index) => ({
    index, mac: h.mac, ips: h.ips, info: h.info, utilisation: h.utilisation,
    switch: h.attachment ? indexOf.get(h.attachment.dpid) : -1,
    port: h.attachment ? h.attachment.port : null,
  }));
  yield;

  const neighbours = compressedRows(switches.length, links.length * 2, (add) => {
    for (const link of links) {
      if (link.a !== link.b) {
        add(link.a, link.b);
        add(link.b, link.a);
      }
    }
  });
  yield;
  const hostsOf = compressedRows(switches.length, hosts.length, (add) => {
    for (const host of hosts) {
      if (host.switch >= 0) {
        add(host.switch, host.index);
      }
    }
  });
  for (const s of switches) {
    s.degree = neighbours.count(s.index);
    s.hostCount = hostsOf.count(s.index);
  }
  const unattachedHosts = hosts.filter((h) => h.switch < 0).length;
  const hostByMac = new Map(hosts.map((h) => [h.mac, h.index]));
  return { switches, links, hosts, neighbours, hostsOf, unattachedHosts, indexOf, linkByEnds, hostByMac };
}

/** One key for a cable, whichever end is given first: its ends ordered by switch index, then port. */
function cable(indexOf, src, dst) {
  let a = { index: indexOf.get(src.dpid), port: src.port };
  let b = { index: indexOf.get(dst.dpid), port: dst.port };
  if (a.index > b.index || (a.index === b.index && String(a.port) > String(b.port))) {
    [a, b] = [b, a];
  }
  return { a, b, key: `${a.index}/${a.port}-${b.index}/${b.port}` };
}

/**
 * Replaces the utilisations of a built model's links, switches and hosts with those in `input` (the
 * shape buildModel takes; anything else in it is ignored): what `input` does not list is not measured
 * (null), a link's busier direction counts, and what the model does not have is counted in `unknown`,
 * never added. Throws, changing nothing, on a malformed entry. Returns how many of each were set.
 */
export function applyUtilisation(model, input) {
  const entries = { links: [], switches: [], hosts: [] };
  listOf(input ?? {}, 'links').forEach((raw, i) => {
    const src = endpoint(raw?.src, `links[${i}].src`);
    const dst = endpoint(raw?.dst, `links[${i}].dst`);
    const u = utilisationOf(raw, `links[${i}]`);
    const known = model.indexOf.has(src.dpid) && model.indexOf.has(dst.dpid)
      ? model.linkByEnds.get(cable(model.indexOf, src, dst).key) : undefined;
    entries.links.push([known, u]);
  });
  listOf(input ?? {}, 'switches').forEach((raw, i) => {
    const dpid = requireDpid(raw?.dpid, `switches[${i}].dpid`);
    entries.switches.push([model.switches[model.indexOf.get(dpid)], utilisationOf(raw, `switches[${i}]`)]);
  });
  listOf(input ?? {}, 'hosts').forEach((raw, i) => {
    if (typeof raw?.mac !== 'string') {
      throw new Error(`hosts[${i}].mac: expected a MAC address string`);
    }
    entries.hosts.push([model.hosts[model.hostByMac.get(raw.mac.toLowerCase())], utilisationOf(raw, `hosts[${i}]`)]);
  });
  const counts = { links: 0, switches: 0, hosts: 0, unknown: 0 };
  for (const kind of ['links', 'switches', 'hosts']) {
    for (const item of model[kind]) {
      item.utilisation = null;
    }
    for (const [item, u] of entries[kind]) {
      if (item === undefined) {
        counts.unknown++;
      } else if (u !== null) {
        item.utilisation = Math.max(item.utilisation ?? 0, u);
        counts[kind]++;
      }
    }
  }
  return counts;
}

function utilisationOf(raw, field) {
  const utilisation = raw.utilisation ?? raw.utilization ?? null;
  if (utilisation !== null && !(typeof utilisation === 'number' && utilisation >= 0)) {
    throw new Error(`${field}.utilisation: expected a number from 0 to 1, got ${JSON.stringify(utilisation)}`);
  }
  return utilisation;
}

/**
 * Rows of integers stored compactly (compressed sparse rows): row r holds the values added for it.
 * `fill(add)` must call add(row, value) the same way each time it is called; it is called twice.
 */
function compressedRows(rowCount, capacity, fill) {
  const offsets = new Int32Array(rowCount + 1);
  fill((row) => { offsets[row + 1]++; });
  for (let r = 0; r < rowCount; r++) {
    offsets[r + 1] += offsets[r];
  }
  const values = new Int32Array(offsets[rowCount]);
  const next = offsets.slice(0, rowCount);
  fill((row, value) => { values[next[row]++] = value; });
  return {
    offsets,
    values,
    count: (row) => offsets[row + 1] - offsets[row],
    row: (row) => values.subarray(offsets[row], offsets[row + 1]),
  };
}

function listOf(input, name) {
  const list = input[name] ?? [];
  if (!Array.isArray(list)) {
    throw new Error(`topology model: ${name} must be an array`);
  }
  return list;
}

function requireDpid(value, field) {
  const dpid = canonicalDpid(value);
  if (dpid === null) {
    throw new Error(`${field}: ${JSON.stringify(value)} is not a datapath id (expected 16 hex digits, e.g. 00:00:00:00:00:00:00:01)`);
  }
  return dpid;
}

function endpoint(raw, field) {
  if (raw === null || typeof raw !== 'object') {
    throw new Error(`${field}: expected {dpid, port}`);
  }
  const port = raw.port ?? null;
  if (port === null) {
    throw new Error(`${field}.port: missing`);
  }
  return { dpid: requireDpid(raw.dpid ?? raw.switch, `${field}.dpid`), port };
}

function ipsOf(raw, i) {
  const ips = raw.ips ?? [...(raw.ipv4 ?? []), ...(raw.ipv6 ?? [])];
  if (!Array.isArray(ips) || ips.some((ip) => typeof ip !== 'string')) {
    throw new Error(`hosts[${i}].ips: expected an array of address strings`);
  }
  return ips;
}

function noteSwitch(switchInfo, dpid) {
  if (!switchInfo.has(dpid)) {
    switchInfo.set(dpid, null);
  }
}
