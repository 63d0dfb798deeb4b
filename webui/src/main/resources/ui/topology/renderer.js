// Draws one frame of the graph on a 2D canvas: only what is on screen, in as few paths as possible
// (one per switch role; links come from LinkLayer's image), with detail that depends on the zoom:
//  - hosts are drawn one by one only from HOST_EXPAND_SCALE on; below it each switch shows a badge
//    with its host count (the count's digits once the badge is big enough to read);
//  - switches are squares of a pixel or two when zoomed far out, circles closer in, labelled closer still;
//  - labels (switch names first, then each drawn host's IP or MAC) are placed only where they overlap
//    no label already placed, so a dense view shows fewer of them rather than an unreadable pile.
// A switch, host or badge with a utilisation band (scene.switchBand, hostBand, badgeBand) is filled in
// that band's colour instead of its role's.

import { BADGE_RADIUS, HOST_SIZE, SWITCH_RADIUS } from './layout.js';
import { UTILISATION_COLOURS } from './scene.js';

export const HOST_EXPAND_SCALE = 1.2;
const LABEL_SCALE = 0.8; // labels that would overlap are left out, so they can show early
/** Switch colours by layer (edge, then aggregation or spine, then core); the legend uses them too. */
export const ROLE_COLOURS = ['#2a7ab0', '#6a4fb3', '#1d2b3a', '#1d2b3a'];
export const HOST_COLOUR = '#6f7f8f';
const MAX_LABELS = 600; // a frame places at most this many; past it the view is too dense to read anyway
const MAX_LABEL_TRIES = 4000;
const LABEL_CELL = 64;
const HIGHLIGHT = '#f0a020';
const SELECTED = '#e0007a';
const REGION = '#2a7ab0';

/** Draws the scene, the links from `linkLayer`'s image; returns what it drew, for the bench and the tests. */
export function drawFrame(ctx, scene, viewport, marks, pixelRatio, linkLayer) {
  const started = performance.now();
  const { model, layout } = scene;
  const s = viewport.scale;
  ctx.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
  ctx.clearRect(0, 0, viewport.width, viewport.height);
  const links = linkLayer.draw(ctx, scene, viewport, pixelRatio);
  ctx.setTransform(pixelRatio * s, 0, 0, pixelRatio * s, pixelRatio * viewport.offsetX, pixelRatio * viewport.offsetY);

  const view = viewport.visibleWorld((SWITCH_RADIUS + 3 * BADGE_RADIUS) * 2);
  const expanded = s >= HOST_EXPAND_SCALE;
  const stats = {
    switches: model.switches.length, switchesDrawn: 0, linksDrawn: links.linksDrawn, linksComplete: links.complete,
    hostsDrawn: 0, hostLabels: 0,
    badgesDrawn: 0, hostsInBadges: 0, hostsExpanded: expanded, scale: s, drawMs: 0,
  };

  drawMarkedLink(ctx, scene, s, marks);

  const visible = [];
  scene.switchGrid.forEachIn(view.minX, view.minY, view.maxX, view.maxY, (i) => visible.push(i));
  stats.switchesDrawn = visible.length;

  if (expanded) {
    stats.hostsDrawn = drawHosts(ctx, scene, view, s);
  } else {
    for (const i of visible) {
      if (model.switches[i].hostCount > 0) {
        stats.badgesDrawn++;
        stats.hostsInBadges += model.switches[i].hostCount;
      }
    }
    drawBadges(ctx, scene, visible, s);
  }
  drawSwitches(ctx, scene, visible, s);
  drawMarks(ctx, scene, view, s, marks, expanded);

  ctx.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
  const labels = new LabelSpace();
  if (s >= LABEL_SCALE) {
    drawSwitchLabels(ctx, scene, visible, viewport, labels);
  }
  if (expanded) {
    stats.hostLabels = drawHostLabels(ctx, scene, view, viewport, labels);
  }
  stats.drawMs = performance.now() - started;
  return stats;
}

function drawMarkedLink(ctx, scene, s, marks) {
  if (marks.link < 0) {
    return;
  }
  const { x, y } = scene.layout;
  const link = scene.model.links[marks.link];
  ctx.beginPath();
  ctx.moveTo(x[link.a], y[link.a]);
  ctx.lineTo(x[link.b], y[link.b]);
  ctx.lineWidth = 4 / s;
  ctx.strokeStyle = marks.linkSelected ? SELECTED : HIGHLIGHT;
  ctx.stroke();
}

function drawSwitches(ctx, scene, visible, s) {
  const { layout, switchBand } = scene;
  const { x, y } = layout;
  const radius = Math.max(SWITCH_RADIUS, 1.2 / s);
  const asDots = SWITCH_RADIUS * s < 2;
  // one path per colour: a role's, or a utilisation band's for the switches that have one
  const colourOf = (i) => (switchBand[i] >= 0 ? UTILISATION_COLOURS[switchBand[i]]
    : ROLE_COLOURS[Math.min(layout.layer[i], ROLE_COLOURS.length - 1)]);
  for (const [colour, members] of groupBy(visible, colourOf)) {
    ctx.beginPath();
    for (const i of members) {
      if (asDots) {
        ctx.rect(x[i] - radius, y[i] - radius, 2 * radius, 2 * radius);
      } else {
        ctx.moveTo(x[i] + radius, y[i]);
        ctx.arc(x[i], y[i], radius, 0, 2 * Math.PI);
      }
    }
    ctx.fillStyle = colour;
    ctx.fill();
  }
}

function groupBy(items, keyOf) {
  const groups = new Map();
  for (const item of items) {
    const key = keyOf(item);
    if (!groups.has(key)) {
      groups.set(key, []);
    }
    groups.get(key).push(item);
  }
  return groups;
}

function drawBadges(ctx, scene, visible, s) {
  const { model, layout, badgeBand } = scene;
  const radius = Math.max(BADGE_RADIUS, 1.5 / s);
  const withHosts = visible.filter((i) => model.switches[i].hostCount > 0);
  // a badge whose hosts have utilisations is filled in the busiest one's colour
  for (const [band, members] of groupBy(withHosts, (i) => badgeBand[i])) {
    ctx.beginPath();
    for (const i of members) {
      ctx.moveTo(layout.badgeX[i] + radius, layout.badgeY[i]);
      ctx.arc(layout.badgeX[i], layout.badgeY[i], radius, 0, 2 * Math.PI);
    }
    ctx.fillStyle = band >= 0 ? UTILISATION_COLOURS[band] : '#eef1f4';
    ctx.fill();
    ctx.lineWidth = 1 / s;
    ctx.strokeStyle = HOST_COLOUR;
    ctx.stroke();
  }
  if (BADGE_RADIUS * s >= 5) {
    ctx.fillStyle = '#2b3540';
    ctx.font = `${Math.min(BADGE_RADIUS * 1.2, 11 / s)}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (const i of visible) {
      const count = model.switches[i].hostCount;
      if (count > 0) {
        ctx.fillText(count > 999 ? '1k+' : String(count), layout.badgeX[i], layout.badgeY[i]);
      }
    }
  }
}

function drawHosts(ctx, scene, view, s) {
  const { hostX, hostY } = scene.layout;
  const half = HOST_SIZE / 2;
  const visible = [];
  scene.hostGrid.forEachIn(view.minX, view.minY, view.maxX, view.maxY, (h) => visible.push(h));
  for (const [band, members] of groupBy(visible, (h) => scene.hostBand[h])) {
    ctx.beginPath();
    for (const h of members) {
      ctx.rect(hostX[h] - half, hostY[h] - half, HOST_SIZE, HOST_SIZE);
    }
    ctx.fillStyle = band >= 0 ? UTILISATION_COLOURS[band] : HOST_COLOUR;
    ctx.fill();
  }
  return visible.length;
}

/** Rings round the hovered and selected item and the search matches on screen. */
function drawMarks(ctx, scene, view, s, marks, expanded) {
  const { layout } = scene;
  const ring = (x, y, r, colour, width) => {
    if (x < view.minX || x > view.maxX || y < view.minY || y > view.maxY) {
      return;
    }
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.lineWidth = width / s;
    ctx.strokeStyle = colour;
    ctx.stroke();
  };
  if (marks.region) {
    const r = marks.region;
    ctx.beginPath();
    ctx.rect(r.minX, r.minY, r.maxX - r.minX, r.maxY - r.minY);
    ctx.setLineDash([6 / s, 4 / s]);
    ctx.lineWidth = 1.5 / s;
    ctx.strokeStyle = REGION;
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = 'rgba(42, 122, 176, 0.06)';
    ctx.fill();
  }
  const hostMarked = (h) => expanded || scene.model.hosts[h].switch < 0;
  for (const m of marks.matches) {
    if (m.kind === 'switch') {
      ring(layout.x[m.index], layout.y[m.index], SWITCH_RADIUS + 4 / s, HIGHLIGHT, 2);
    } else if (hostMarked(m.index)) {
      ring(layout.hostX[m.index], layout.hostY[m.index], HOST_SIZE + 3 / s, HIGHLIGHT, 2);
    }
  }
  for (const [item, colour] of [[marks.hover, HIGHLIGHT], [marks.selected, SELECTED]]) {
    if (item?.kind === 'switch') {
      ring(layout.x[item.index], layout.y[item.index], SWITCH_RADIUS + 5 / s, colour, 2.5);
    } else if (item?.kind === 'host') {
      const h = item.index;
      const sw = scene.model.hosts[h].switch;
      if (hostMarked(h)) {
        ring(layout.hostX[h], layout.hostY[h], HOST_SIZE + 4 / s, colour, 2.5);
      } else {
        ring(layout.badgeX[sw], layout.badgeY[sw], BADGE_RADIUS + 4 / s, colour, 2.5);
      }
    }
  }
}

function drawSwitchLabels(ctx, scene, visible, viewport, labels) {
  const { model, layout } = scene;
  ctx.font = '11px sans-serif';
  ctx.fillStyle = '#1d2b3a';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  const below = SWITCH_RADIUS * viewport.scale + 3;
  for (const i of visible) {
    const p = viewport.toScreen(layout.x[i], layout.y[i]);
    const text = model.switches[i].label;
    const width = ctx.measureText(text).width;
    if (labels.claim(p.x - width / 2, p.y + below, width, 12)) {
      ctx.fillText(text, p.x - width / 2, p.y + below);
    }
  }
}

/** Labels each drawn host with its first IP address, or its MAC without one; returns how many were labelled. */
function drawHostLabels(ctx, scene, view, viewport, labels) {
  const { model, layout } = scene;
  ctx.font = '10px sans-serif';
  ctx.fillStyle = '#44515e';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  const gap = (HOST_SIZE / 2) * viewport.scale + 2;
  let labelled = 0;
  scene.hostGrid.forEachIn(view.minX, view.minY, view.maxX, view.maxY, (h) => {
    if (labels.full) {
      return;
    }
    const host = model.hosts[h];
    const text = host.ips[0] ?? host.mac;
    const p = viewport.toScreen(layout.hostX[h], layout.hostY[h]);
    const width = ctx.measureText(text).width;
    // on the side away from the graph's centre is not known here: the right, else the left
    for (const x of [p.x + gap, p.x - gap - width]) {
      if (labels.claim(x, p.y - 6, width, 12)) {
        ctx.fillText(text, x, p.y);
        labelled++;
        return;
      }
    }
  });
  return labelled;
}

/**
 * The screen rectangles labels took this frame: a label is drawn only where it overlaps none of them.
 * Rectangles are filed by the LABEL_CELL-pixel cells they cover, so a claim looks only at its
 * neighbours; a frame tries at most MAX_LABEL_TRIES claims, however many hosts are on screen.
 */
class LabelSpace {
  constructor() {
    this.cells = new Map();
    this.placed = 0;
    this.tries = 0;
  }

  get full() {
    return this.placed >= MAX_LABELS || this.tries >= MAX_LABEL_TRIES;
  }

  claim(x, y, width, height) {
    if (this.full) {
      return false;
    }
    this.tries++;
    const keys = [];
    for (let cx = Math.floor(x / LABEL_CELL); cx <= Math.floor((x + width) / LABEL_CELL); cx++) {
      for (let cy = Math.floor(y / LABEL_CELL); cy <= Math.floor((y + height) / LABEL_CELL); cy++) {
        const key = `${cx},${cy}`;
        for (const r of this.cells.get(key) ?? []) {
          if (x < r.x + r.width && r.x < x + width && y < r.y + r.height && r.y < y + height) {
            return false;
          }
        }
        keys.push(key);
      }
    }
    const rect = { x, y, width, height };
    for (const key of keys) {
      if (!this.cells.has(key)) {
        this.cells.set(key, []);
      }
      this.cells.get(key).push(rect);
    }
    this.placed++;
    return true;
  }
}
