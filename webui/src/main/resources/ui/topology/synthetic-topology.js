// A made-up fat-tree-like network of any size, in the shape the REST API gives (both directions of
// every link, hosts with one attachment), for the benchmark page and tests. Deterministic: the same
// sizes and seed give the same network.
//
// k pods of k/2 edge and k/2 aggregation switches, with k chosen so the pods take about 4/5 of the
// switches; the rest are core switches, core c linked to aggregation switch c mod k/2 of every pod.
// Hosts go round-robin over the edge switches. Link utilisation is random, skewed towards idle, and
// one direction in ten is not measured.

export function syntheticFatTree({ switches, hosts, seed = 1 }) {
  if (!Number.isInteger(switches) || switches < 1 || switches > 65536) {
    throw new Error(`switches: expected a whole number from 1 to 65536, got ${switches}`);
  }
  if (!Number.isInteger(hosts) || hosts < 0 || hosts > 1_000_000) {
    throw new Error(`hosts: expected a whole number from 0 to 1000000, got ${hosts}`);
  }
  const random = seededRandom(seed);
  let k = 2 * Math.max(1, Math.round(Math.sqrt((switches * 4) / 5) / 2));
  while (k > 2 && k * k > switches) {
    k -= 2;
  }
  const pods = k * k <= switches ? k : 0; // fewer than 4 switches: no pods, a line of edge switches
  const half = k / 2;
  const model = { switches: [], links: [], hosts: [] };
  const edges = [];
  const aggregation = [];
  const add = (dpid, role) => {
    model.switches.push({ dpid, role });
    return dpid;
  };
  for (let p = 0; p < pods; p++) {
    aggregation.push([]);
    for (let i = 0; i < half; i++) {
      edges.push({ dpid: add(dpidOf(1, p, i), 'edge'), pod: p, i });
    }
    for (let j = 0; j < half; j++) {
      aggregation[p].push(add(dpidOf(2, p, j), 'aggregation'));
    }
  }
  const cores = [];
  while (model.switches.length < switches) {
    cores.push(add(dpidOf(3, cores.length >> 8, cores.length & 255), pods > 0 ? 'core' : 'edge'));
  }
  const link = (a, aPort, b, bPort) => {
    for (const [src, srcPort, dst, dstPort] of [[a, aPort, b, bPort], [b, bPort, a, aPort]]) {
      const utilisation = random() < 0.1 ? null : Math.round(random() ** 3 * 1000) / 1000;
      model.links.push({ src: { dpid: src, port: srcPort }, dst: { dpid: dst, port: dstPort }, utilisation });
    }
  };
  for (const e of edges) {
    aggregation[e.pod].forEach((agg, j) => link(e.dpid, j + 1, agg, e.i + 1));
  }
  cores.forEach((core, c) => {
    if (pods > 0) {
      for (let p = 0; p < pods; p++) {
        link(aggregation[p][c % half], half + 1 + Math.floor(c / half), core, p + 1);
      }
    } else if (c > 0) {
      link(cores[c - 1], 2, core, 1); // no pods: a line
    }
  });
  const attachTo = edges.length > 0 ? edges.map((e) => e.dpid) : cores;
  const firstHostPort = pods > 0 ? half + 1 : 3;
  for (let h = 0; h < hosts; h++) {
    const n = h + 1;
    model.hosts.push({
      mac: `02:00:${hex(n >>> 24)}:${hex(n >>> 16)}:${hex(n >>> 8)}:${hex(n)}`,
      ips: [`10.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`],
      attachment: { dpid: attachTo[h % attachTo.length], port: firstHostPort + Math.floor(h / attachTo.length) },
    });
  }
  return model;
}

function dpidOf(role, group, index) {
  return `00:00:00:00:00:${hex(role)}:${hex(group)}:${hex(index)}`;
}

function hex(byte) {
  return (byte & 255).toString(16).padStart(2, '0');
}

/** Marsaglia's xorshift: small and fast, and unlike Math.random it can be seeded. */
function seededRandom(seed) {
  let x = (seed >>> 0) || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}
