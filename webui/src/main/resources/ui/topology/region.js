// What lies in a rectangle of the graph (world coordinates), for a selection by region: the switches
// drawn in it, the hosts drawn in it (one by one, or in their switch's badge) and the hosts of the
// switches in it, and the links that cross it. Linear in the size of the graph; run once per selection.

import { clip } from './link-layer.js';

/**
 * The items of `scene` in `rect` ({minX, minY, maxX, maxY}, world units): switches by dpid, hosts by
 * MAC, links by their ends ({a: {dpid, port}, b: {dpid, port}}), each list in the model's order.
 */
export function itemsInRegion(scene, rect) {
  const { model, layout } = scene;
  const inside = (x, y) => x >= rect.minX && x <= rect.maxX && y >= rect.minY && y <= rect.maxY;
  const switchInside = new Uint8Array(model.switches.length);
  const switches = [];
  for (const s of model.switches) {
    if (inside(layout.x[s.index], layout.y[s.index])) {
      switchInside[s.index] = 1;
      switches.push(s.dpid);
    }
  }
  const hosts = [];
  for (const h of model.hosts) {
    const atSwitch = h.switch >= 0
      && (switchInside[h.switch] === 1 || inside(layout.badgeX[h.switch], layout.badgeY[h.switch]));
    if (atSwitch || inside(layout.hostX[h.index], layout.hostY[h.index])) {
      hosts.push(h.mac);
    }
  }
  const links = [];
  const clipped = new Float64Array(4);
  for (const link of model.links) {
    if (clip(layout.x[link.a], layout.y[link.a], layout.x[link.b], layout.y[link.b], rect, clipped)) {
      links.push({ a: { dpid: model.switches[link.a].dpid, port: link.aPort },
        b: { dpid: model.switches[link.b].dpid, port: link.bPort } });
    }
  }
  return { switches, hosts, links };
}

/** The rectangle with corners (x0, y0) and (x1, y1), whichever way round they are. */
export function rectangle(x0, y0, x1, y1) {
  return { minX: Math.min(x0, x1), minY: Math.min(y0, y1), maxX: Math.max(x0, x1), maxY: Math.max(y0, y1) };
}
