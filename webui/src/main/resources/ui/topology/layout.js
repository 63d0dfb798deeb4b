// Where each switch, host and host-count badge goes: a deterministic layered layout on rings, linear
// in the size of the graph, so 1,000 switches and 10,000 hosts are placed in a few milliseconds.
//
// Roles come from the graph alone. Switches with hosts are the edge (layer 0; with no hosts at all,
// the switches of least degree); every other switch's layer is its hop count from the nearest edge
// switch, so a fat tree gives edge 0, aggregation 1, core 2. Layer 0 is the outer ring and higher
// layers lie inside it. In a graph of three or more layers the outer two are cut into pods (the
// components of the edge and aggregation switches alone) and each pod gets its own sector of both
// rings; inner rings are ordered by the mean angle of their outer neighbours, which keeps links short.
// A switch's hosts sit outside its ring, in rows facing away from the centre.

export const SWITCH_RADIUS = 6;
export const HOST_SIZE = 4;
export const BADGE_RADIUS = 7;
const SWITCH_SPACING = 30;
const RING_GAP = 140;
const HOST_SPACING = 6;
const HOST_OFFSET = SWITCH_RADIUS + 10;
const YIELD_EVERY = 1024;

/** Names of the inferred roles, by layer, for a graph with `layerCount` layers. */
export function roleName(layer, layerCount) {
  if (layerCount === 1) {
    return 'switch';
  }
  if (layer === 0) {
    return 'edge';
  }
  if (layerCount === 2) {
    return 'spine';
  }
  return layer === 1 ? 'aggregation' : 'core';
}

/** Lays out a model from buildModel; run it with runInSlices. */
export function* layoutTopology(model) {
  const n = model.switches.length;
  const layer = yield* inferLayers(model);
  let layerCount = 0;
  for (let i = 0; i < n; i++) {
    layerCount = Math.max(layerCount, layer[i] + 1);
  }
  const angle = new Float64Array(n);
  const radius = new Float64Array(n);
  const byLayer = groupBy(n, layerCount, (i) => layer[i]);
  const podLayers = layerCount >= 3 ? 2 : 1;

  const podSlots = placePods(model, layer, podLayers, byLayer, angle);
  yield;
  for (let l = podLayers; l < layerCount; l++) {
    placeInnerRing(model, layer, l, byLayer[l], angle);
    yield;
  }
  // radii from the inside out: each ring is long enough for its switches and clear of the one inside
  const ringRadius = new Float64Array(layerCount);
  let inside = -RING_GAP;
  for (let l = layerCount - 1; l >= 0; l--) {
    const slots = l < podLayers ? podSlots : byLayer[l].length;
    const innermost = l === layerCount - 1;
    // a single innermost switch sits at the centre; a few are kept apart enough to tell their links apart
    const needed = slots <= 1 && innermost ? 0
      : Math.max((slots * SWITCH_SPACING) / (2 * Math.PI), innermost ? RING_GAP / 2 : 0);
    ringRadius[l] = Math.max(needed, inside + RING_GAP);
    inside = ringRadius[l];
  }
  const x = new Float32Array(n);
  const y = new Float32Array(n);
  const badgeX = new Float32Array(n);
  const badgeY = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    radius[i] = ringRadius[layer[i]];
    const ux = Math.cos(angle[i]);
    const uy = Math.sin(angle[i]);
    x[i] = radius[i] * ux;
    y[i] = radius[i] * uy;
    badgeX[i] = x[i] + ux * (SWITCH_RADIUS + BADGE_RADIUS + 2);
    badgeY[i] = y[i] + uy * (SWITCH_RADIUS + BADGE_RADIUS + 2);
  }
  yield;
  const { hostX, hostY } = yield* placeHosts(model, x, y, angle, radius, byLayer, layer);
  return { x, y, layer, layerCount, badgeX, badgeY, hostX, hostY, bounds: boundsOf(x, y, hostX, hostY) };
}

/** Hop count from the nearest edge switch; each component without hosts starts from its least-connected switches. */
function* inferLayers(model) {
  const n = model.switches.length;
  const layer = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (const s of model.switches) {
    if (s.hostCount > 0) {
      layer[s.index] = 0;
      queue[tail++] = s.index;
    }
  }
  const spread = function* () {
    while (head < tail) {
      const s = queue[head++];
      for (const t of model.neighbours.row(s)) {
        if (layer[t] < 0) {
          layer[t] = layer[s] + 1;
          queue[tail++] = t;
        }
      }
      if (head % YIELD_EVERY === 0) yield;
    }
  };
  yield* spread();
  for (let start = 0; start < n; start++) {
    if (layer[start] >= 0) {
      continue;
    }
    // a component no host reaches: find it, then start from its switches of least degree
    const component = componentOf(model, start, (s) => layer[s] < 0);
    const least = Math.min(...component.map((s) => model.switches[s].degree));
    for (const s of component) {
      if (model.switches[s].degree === least) {
        layer[s] = 0;
        queue[tail++] = s;
      }
    }
    yield* spread();
  }
  return layer;
}

/** Gives each pod (component of the outer `podLayers` layers) a sector; returns the slots all sectors take. */
function placePods(model, layer, podLayers, byLayer, angle) {
  const inPods = (s) => layer[s] < podLayers;
  const podOf = new Int32Array(model.switches.length).fill(-1);
  const pods = [];
  for (let l = 0; l < podLayers; l++) {
    for (const s of byLayer[l]) { // ascending index, so pods come in the order of their lowest dpid
      if (podOf[s] < 0) {
        const members = componentOf(model, s, inPods);
        for (const m of members) {
          podOf[m] = pods.length;
        }
        pods.push(members.sort((p, q) => p - q));
      }
    }
  }
  let slots = 0;
  const widths = pods.map((members) => {
    const perLayer = new Array(podLayers).fill(0);
    for (const m of members) {
      perLayer[layer[m]]++;
    }
    return Math.max(...perLayer);
  });
  for (const w of widths) {
    slots += w;
  }
  let start = 0;
  pods.forEach((members, p) => {
    const sector = (2 * Math.PI * widths[p]) / slots;
    for (let l = 0; l < podLayers; l++) {
      const ring = members.filter((m) => layer[m] === l);
      ring.forEach((s, i) => {
        angle[s] = -Math.PI / 2 + start + (sector * (i + 0.5)) / ring.length;
      });
    }
    start += sector;
  });
  return slots;
}

/** Orders an inner ring by the mean direction of each switch's neighbours one ring further out. */
function placeInnerRing(model, layer, l, ring, angle) {
  const key = new Float64Array(model.switches.length);
  for (const s of ring) {
    let sx = 0;
    let sy = 0;
    for (const t of model.neighbours.row(s)) {
      if (layer[t] === l - 1) {
        sx += Math.cos(angle[t]);
        sy += Math.sin(angle[t]);
      }
    }
    // neighbours all round (a core switch of a fat tree) have no mean direction: keep dpid order
    key[s] = Math.hypot(sx, sy) < 1e-6 ? Infinity : normalised(Math.atan2(sy, sx));
  }
  const ordered = [...ring].sort((p, q) => key[p] - key[q] || p - q);
  ordered.forEach((s, i) => {
    angle[s] = -Math.PI / 2 + (2 * Math.PI * (i + 0.5)) / ordered.length;
  });
}

/** Hosts in rows outside their switch, facing away from the centre; rows as wide as the switch's share of its ring. */
function* placeHosts(model, x, y, angle, radius, byLayer, layer) {
  const hostX = new Float32Array(model.hosts.length);
  const hostY = new Float32Array(model.hosts.length);
  let placed = 0;
  for (const s of model.switches) {
    const hosts = model.hostsOf.row(s.index);
    if (hosts.length === 0) {
      continue;
    }
    const ringSize = byLayer[layer[s.index]].length;
    const share = radius[s.index] > 0 ? (2 * Math.PI * radius[s.index]) / ringSize : Infinity;
    const fit = Math.floor((0.8 * Math.min(share, 1e6)) / HOST_SPACING);
    const perRow = Math.max(1, Math.min(fit, Math.ceil(Math.sqrt(hosts.length))));
    const ux = radius[s.index] > 0 ? Math.cos(angle[s.index]) : 0;
    const uy = radius[s.index] > 0 ? Math.sin(angle[s.index]) : 1;
    for (let j = 0; j < hosts.length; j++) {
      const row = Math.floor(j / perRow);
      const col = (j % perRow) - (perRow - 1) / 2;
      const out = HOST_OFFSET + BADGE_RADIUS * 2 + row * HOST_SPACING;
      hostX[hosts[j]] = x[s.index] + ux * out - uy * col * HOST_SPACING;
      hostY[hosts[j]] = y[s.index] + uy * out + ux * col * HOST_SPACING;
      if (++placed % YIELD_EVERY === 0) yield;
    }
  }
  // hosts attached to no known switch: a row under the graph, so search still finds them
  let bottom = 0;
  for (let i = 0; i < y.length; i++) {
    bottom = Math.max(bottom, y[i]);
  }
  let k = 0;
  for (const h of model.hosts) {
    if (h.switch < 0) {
      hostX[h.index] = (k % 100) * HOST_SPACING;
      hostY[h.index] = bottom + RING_GAP + Math.floor(k / 100) * HOST_SPACING;
      k++;
    }
  }
  return { hostX, hostY };
}

function componentOf(model, start, within) {
  const seen = new Set([start]);
  const members = [start];
  for (let i = 0; i < members.length; i++) {
    for (const t of model.neighbours.row(members[i])) {
      if (!seen.has(t) && within(t)) {
        seen.add(t);
        members.push(t);
      }
    }
  }
  return members;
}

function groupBy(n, groups, groupOf) {
  const lists = Array.from({ length: groups }, () => []);
  for (let i = 0; i < n; i++) {
    lists[groupOf(i)].push(i);
  }
  return lists;
}

function normalised(a) {
  const turn = 2 * Math.PI;
  return (((a + Math.PI / 2) % turn) + turn) % turn;
}

function boundsOf(x, y, hostX, hostY) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [xs, ys] of [[x, y], [hostX, hostY]]) {
    for (let i = 0; i < xs.length; i++) {
      minX = Math.min(minX, xs[i]);
      maxX = Math.max(maxX, xs[i]);
      minY = Math.min(minY, ys[i]);
      maxY = Math.max(maxY, ys[i]);
    }
  }
  if (minX === Infinity) {
    return { minX: -100, minY: -100, maxX: 100, maxY: 100 };
  }
  const pad = SWITCH_RADIUS + 2 * BADGE_RADIUS + 4;
  return { minX: minX - pad, minY: minY - pad, maxX: maxX + pad, maxY: maxY + pad };
}
