// The topology graph: switches, links and hosts on a canvas, with pan (drag, arrow keys), zoom (wheel,
// double click, + and -), hover and click details, and search. Building the model and the layout runs
// in slices (see slices.js), and each frame draws only what is on screen (see renderer.js), so a
// 1,000-switch, 10,000-host network stays responsive.
//
//   const graph = new TopologyGraph(element);
//   await graph.setModel({switches, links, hosts});   // see topology-model.js for the shape
//
// Utilisations (links, and switches or hosts such as servers' CPU) can change without a new layout:
//   graph.setUtilisation({links, switches, hosts});   // the shape setModel takes; what is left out is unmeasured
// Shift and drag selects a region: its switches, hosts and links go to options.onRegion (null when the
// region is cleared with Escape or a plain click on empty space); selectRegion does it from code.
//
// After each frame the canvas carries what it drew as data attributes (data-switches,
// data-switches-drawn, data-links-drawn, data-links-complete, data-hosts-drawn, data-hosts-in-badges,
// data-host-labels),
// for tests. The links come a moment after the rest when the view has changed (see link-layer.js).

import { applyUtilisation, buildModel } from './topology-model.js';
import { layoutTopology, roleName, SWITCH_RADIUS, BADGE_RADIUS, HOST_SIZE } from './layout.js';
import { buildScene, recolourScene, UTILISATION_COLOURS } from './scene.js';
import { itemsInRegion, rectangle } from './region.js';
import { drawFrame, HOST_COLOUR, HOST_EXPAND_SCALE, ROLE_COLOURS } from './renderer.js';
import { describe } from './details.js';
import { findMatches } from './search.js';
import { runInSlices } from './slices.js';
import { Viewport } from './viewport.js';
import { installStyle } from './graph-style.js';
import { LinkLayer } from './link-layer.js';

const DRAG_THRESHOLD = 4;
const LINK_PICK_PIXELS = 5;
const FOCUS_SCALE = HOST_EXPAND_SCALE * 2;

export class TopologyGraph {
  /**
   * @param {HTMLElement} element where the graph goes; it fills it
   * @param {{onFrame?: function(object): void, onSelect?: function(object|null): void,
   *          onRegion?: function(object|null): void}} options
   */
  constructor(element, { onFrame = () => {}, onSelect = () => {}, onRegion = () => {} } = {}) {
    installStyle(element.ownerDocument);
    this.onFrame = onFrame;
    this.onSelect = onSelect;
    this.onRegion = onRegion;
    this.viewport = new Viewport();
    this.scene = null;
    this.marks = { hover: null, selected: null, matches: [], link: -1, linkSelected: false, region: null };
    this.matchCursor = -1;
    this.frameRequested = false;
    this.generation = 0;
    this.status = 'No topology yet';
    this.lastFrame = null;
    this.buildDom(element);
    this.linkLayer = new LinkLayer(element.ownerDocument, () => this.invalidate());
    this.bindInput();
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(this.stage);
    this.resize();
  }

  /** Replaces the topology. Resolves once the new one is laid out; the view is kept unless this is the first. */
  async setModel(input) {
    const generation = ++this.generation;
    this.status = 'Laying out…';
    this.invalidate();
    let scene;
    try {
      const model = await runInSlices(buildModel(input));
      const layout = await runInSlices(layoutTopology(model));
      scene = buildScene(model, layout);
    } catch (e) {
      if (generation === this.generation) {
        this.status = `Cannot show this topology: ${e.message}`;
        this.invalidate();
      }
      throw e;
    }
    if (generation !== this.generation) {
      return this.summary(); // a newer model arrived while this one was laid out
    }
    const first = this.scene === null;
    const selectedKey = this.keyOf(this.marks.selected);
    this.scene = scene;
    this.status = null;
    this.marks.hover = null;
    this.marks.link = -1;
    this.marks.selected = this.itemByKey(selectedKey);
    if (this.marks.region) {
      this.marks.region = null; // it held the old topology's items
      this.onRegion(null);
    }
    this.showDetails(this.marks.selected);
    this.showRoles(scene.layout.layerCount);
    this.search(this.searchBox.value, { focus: false });
    if (first) {
      this.viewport.fit(scene.layout.bounds);
    }
    this.invalidate();
    return this.summary();
  }

  /**
   * Replaces the utilisations of the links, switches and hosts shown (same shape as setModel's input;
   * whatever it leaves out is not measured) without laying the graph out again. Returns the counts set,
   * and `unknown`: entries for things the graph does not have.
   */
  setUtilisation(input) {
    if (!this.scene) {
      return null;
    }
    const counts = applyUtilisation(this.scene.model, input);
    this.scene = recolourScene(this.scene);
    this.showDetails(this.marks.selected);
    this.invalidate();
    return counts;
  }

  /**
   * Selects the items in a rectangle given in canvas pixels ({x0, y0, x1, y1}), or clears the region
   * (null); tells onRegion and returns what it holds (see region.js).
   */
  selectRegion(screenRect) {
    if (!this.scene || screenRect === null) {
      this.marks.region = null;
      this.invalidate();
      this.onRegion(null);
      return null;
    }
    const a = this.viewport.toWorld(screenRect.x0, screenRect.y0);
    const b = this.viewport.toWorld(screenRect.x1, screenRect.y1);
    this.marks.region = rectangle(a.x, a.y, b.x, b.y);
    const items = itemsInRegion(this.scene, this.marks.region);
    this.invalidate();
    this.onRegion(items);
    return items;
  }

  summary() {
    const m = this.scene?.model;
    return m ? { switches: m.switches.length, links: m.links.length, hosts: m.hosts.length } : null;
  }

  /** Shows the whole graph. */
  fit() {
    if (this.scene) {
      this.viewport.fit(this.scene.layout.bounds);
      this.invalidate();
    }
  }

  /**
   * Highlights the matches for `text` and, with focus, selects the next one and brings it into view.
   * Returns the number of matches.
   */
  search(text, { focus = true } = {}) {
    if (!this.scene) {
      return 0;
    }
    const matches = findMatches(this.scene.model, text);
    const same = matches.length === this.marks.matches.length
        && matches.every((m, i) => this.marks.matches[i].kind === m.kind && this.marks.matches[i].index === m.index);
    this.marks.matches = matches;
    this.matchCursor = same ? this.matchCursor : -1;
    this.matchCount.textContent = text.trim() === '' ? '' : `${matches.length}${matches.length >= 1000 ? '+' : ''} found`;
    if (focus && matches.length > 0) {
      this.matchCursor = (this.matchCursor + 1) % matches.length;
      this.select(matches[this.matchCursor]);
      this.focusOn(matches[this.matchCursor]);
    }
    this.invalidate();
    return matches.length;
  }

  /** Selects a switch, host or link ({kind, index}), or nothing (null), and shows its details. */
  select(item) {
    this.marks.selected = item;
    this.marks.link = item?.kind === 'link' ? item.index : -1;
    this.marks.linkSelected = item?.kind === 'link';
    this.showDetails(item);
    this.onSelect(item ? { ...item, ...describe(this.scene, item) } : null);
    this.invalidate();
  }

  /** Centres the view on an item, zoomed in far enough that its hosts are drawn one by one. */
  focusOn(item) {
    const p = this.positionOf(item);
    this.viewport.centreOn(p.x, p.y, Math.max(this.viewport.scale, FOCUS_SCALE));
    this.invalidate();
  }

  /** Where on the canvas (CSS pixels from its top left corner) a switch is drawn now, or null. */
  screenPositionOfSwitch(dpid) {
    const s = this.scene?.model.switches.find((sw) => sw.dpid === dpid);
    if (!s) {
      return null;
    }
    return this.viewport.toScreen(this.scene.layout.x[s.index], this.scene.layout.y[s.index]);
  }

  destroy() {
    this.generation++;
    this.resizeObserver.disconnect();
    this.linkLayer.dispose();
    this.root.remove();
  }

  // ---- drawing

  invalidate() {
    if (!this.frameRequested) {
      this.frameRequested = true;
      requestAnimationFrame((time) => this.frame(time));
    }
  }

  frame(time) {
    this.frameRequested = false;
    if (this.pendingHover) {
      this.hover(this.pendingHover);
      this.pendingHover = null;
    }
    const ctx = this.canvas.getContext('2d');
    const ratio = this.pixelRatio;
    if (!this.scene || this.status) {
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, this.viewport.width, this.viewport.height);
      ctx.fillStyle = '#44515e';
      ctx.font = '14px sans-serif';
      ctx.textAlign = 'center';
      ctx.fillText(this.status ?? '', this.viewport.width / 2, this.viewport.height / 2);
      return;
    }
    const stats = drawFrame(ctx, this.scene, this.viewport, this.marks, ratio, this.linkLayer);
    stats.time = time;
    this.lastFrame = stats;
    const data = this.canvas.dataset;
    data.switches = stats.switches;
    data.switchesDrawn = stats.switchesDrawn;
    data.linksDrawn = stats.linksDrawn;
    data.linksComplete = stats.linksComplete;
    data.hostsDrawn = stats.hostsDrawn;
    data.hostsInBadges = stats.hostsInBadges;
    data.hostLabels = stats.hostLabels;
    this.onFrame(stats);
  }

  resize() {
    const box = this.stage.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) {
      return; // taken out of the page or hidden: keep the last size until it is shown again
    }
    this.pixelRatio = window.devicePixelRatio || 1;
    this.canvas.width = Math.max(1, Math.round(box.width * this.pixelRatio));
    this.canvas.height = Math.max(1, Math.round(box.height * this.pixelRatio));
    this.canvas.style.width = `${box.width}px`;
    this.canvas.style.height = `${box.height}px`;
    const firstSize = this.viewport.width === 0;
    this.viewport.resize(box.width, box.height);
    if (firstSize && this.scene) {
      this.viewport.fit(this.scene.layout.bounds);
    }
    this.invalidate();
  }

  // ---- what is where

  /** The item under a canvas point: a host (when drawn), a switch, a host badge, then a link. */
  itemAt(screenX, screenY) {
    if (!this.scene) {
      return null;
    }
    const { model, layout, switchGrid, hostGrid } = this.scene;
    const s = this.viewport.scale;
    const p = this.viewport.toWorld(screenX, screenY);
    if (s >= HOST_EXPAND_SCALE) {
      const h = hostGrid.nearest(p.x, p.y, Math.max(HOST_SIZE, 4 / s));
      if (h >= 0) {
        return { kind: 'host', index: h };
      }
    }
    const sw = switchGrid.nearest(p.x, p.y, Math.max(SWITCH_RADIUS + 1, 5 / s));
    if (sw >= 0) {
      return { kind: 'switch', index: sw };
    }
    if (s < HOST_EXPAND_SCALE) {
      // a badge stands just outside its switch: look among the switches near enough to own it
      const reach = SWITCH_RADIUS + 3 * BADGE_RADIUS + 2;
      const r = Math.max(BADGE_RADIUS, 4 / s);
      let badge = -1;
      switchGrid.forEachIn(p.x - reach - r, p.y - reach - r, p.x + reach + r, p.y + reach + r, (i) => {
        if (model.switches[i].hostCount > 0 && Math.hypot(layout.badgeX[i] - p.x, layout.badgeY[i] - p.y) <= r) {
          badge = i;
        }
      });
      if (badge >= 0) {
        return { kind: 'badge', index: badge };
      }
    }
    const link = this.linkNear(p.x, p.y, LINK_PICK_PIXELS / s);
    return link >= 0 ? { kind: 'link', index: link } : null;
  }

  linkNear(px, py, within) {
    const { model, layout } = this.scene;
    let best = -1;
    let bestDistance = within;
    for (const link of model.links) {
      const ax = layout.x[link.a];
      const ay = layout.y[link.a];
      const bx = layout.x[link.b];
      const by = layout.y[link.b];
      if (px < Math.min(ax, bx) - within || px > Math.max(ax, bx) + within
          || py < Math.min(ay, by) - within || py > Math.max(ay, by) + within) {
        continue;
      }
      const d = distanceToSegment(px, py, ax, ay, bx, by);
      if (d <= bestDistance) {
        best = link.index;
        bestDistance = d;
      }
    }
    return best;
  }

  positionOf(item) {
    const { layout } = this.scene;
    if (item.kind === 'host') {
      return { x: layout.hostX[item.index], y: layout.hostY[item.index] };
    }
    if (item.kind === 'link') {
      const link = this.scene.model.links[item.index];
      return { x: (layout.x[link.a] + layout.x[link.b]) / 2, y: (layout.y[link.a] + layout.y[link.b]) / 2 };
    }
    return { x: layout.x[item.index], y: layout.y[item.index] };
  }

  keyOf(item) {
    if (!item || !this.scene) {
      return null;
    }
    const m = this.scene.model;
    if (item.kind === 'switch') {
      return { kind: 'switch', id: m.switches[item.index].dpid };
    }
    if (item.kind === 'host') {
      return { kind: 'host', id: m.hosts[item.index].mac };
    }
    return null;
  }

  itemByKey(key) {
    if (!key) {
      return null;
    }
    const m = this.scene.model;
    const index = key.kind === 'switch'
      ? m.switches.findIndex((s) => s.dpid === key.id)
      : m.hosts.findIndex((h) => h.mac === key.id);
    return index >= 0 ? { kind: key.kind, index } : null;
  }

  // ---- input

  bindInput() {
    const canvas = this.canvas;
    let press = null;
    canvas.addEventListener('pointerdown', (e) => {
      canvas.setPointerCapture(e.pointerId);
      // with shift, a drag draws a region instead of panning
      press = { x: e.offsetX, y: e.offsetY, lastX: e.offsetX, lastY: e.offsetY, dragging: false, region: e.shiftKey };
    });
    canvas.addEventListener('pointermove', (e) => {
      if (press?.region) {
        press.dragging ||= Math.hypot(e.offsetX - press.x, e.offsetY - press.y) >= DRAG_THRESHOLD;
        if (press.dragging && this.scene) {
          const a = this.viewport.toWorld(press.x, press.y);
          const b = this.viewport.toWorld(e.offsetX, e.offsetY);
          this.marks.region = rectangle(a.x, a.y, b.x, b.y); // drawn as it grows; its items on release
          this.invalidate();
        }
        return;
      }
      if (press) {
        const dx = e.offsetX - press.lastX;
        const dy = e.offsetY - press.lastY;
        press.dragging ||= Math.hypot(e.offsetX - press.x, e.offsetY - press.y) >= DRAG_THRESHOLD;
        if (press.dragging) {
          this.viewport.panBy(dx, dy);
          press.lastX = e.offsetX;
          press.lastY = e.offsetY;
          this.invalidate();
        }
        return;
      }
      // hit-test once per frame, however many moves arrive
      this.pendingHover = { x: e.offsetX, y: e.offsetY };
      this.invalidate();
    });
    const release = (e, cancelled) => {
      if (press?.region && press.dragging && !cancelled) {
        this.selectRegion({ x0: press.x, y0: press.y, x1: e.offsetX, y1: e.offsetY });
      } else if (press && !press.dragging && !cancelled) {
        this.click(e.offsetX, e.offsetY);
      } else if (press?.region && cancelled) {
        this.marks.region = null;
        this.invalidate();
      }
      press = null;
    };
    canvas.addEventListener('pointerup', (e) => release(e, false));
    canvas.addEventListener('pointercancel', (e) => release(e, true));
    canvas.addEventListener('pointerleave', () => {
      this.pendingHover = null;
      this.hover(null);
    });
    canvas.addEventListener('wheel', (e) => {
      e.preventDefault();
      const pixels = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
      this.viewport.zoomAt(e.offsetX, e.offsetY, Math.exp(-pixels * 0.0015));
      this.invalidate();
    }, { passive: false });
    canvas.addEventListener('dblclick', (e) => {
      this.viewport.zoomAt(e.offsetX, e.offsetY, 2);
      this.invalidate();
    });
    canvas.addEventListener('keydown', (e) => this.key(e));
    this.searchBox.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        this.search(this.searchBox.value);
      }
    });
    this.searchBox.addEventListener('input', () => this.search(this.searchBox.value, { focus: false }));
    this.fitButton.addEventListener('click', () => this.fit());
    this.closeButton.addEventListener('click', () => this.select(null));
  }

  click(x, y) {
    const item = this.itemAt(x, y);
    if (item?.kind === 'badge') {
      // a host count: open it up, the switch's hosts are drawn one by one from this zoom on
      const sw = { kind: 'switch', index: item.index };
      this.select(sw);
      this.focusOn(sw);
      return;
    }
    if (item === null && this.marks.region) {
      this.selectRegion(null); // a click on empty space lets go of the region
    }
    this.select(item);
  }

  hover(point) {
    const item = point ? this.itemAt(point.x, point.y) : null;
    const shown = item?.kind === 'badge' ? { kind: 'switch', index: item.index } : item;
    this.marks.hover = shown;
    if (!this.marks.linkSelected) {
      this.marks.link = shown?.kind === 'link' ? shown.index : -1;
    }
    if (shown) {
      this.tooltip.textContent = describe(this.scene, shown).summary
          + (item.kind === 'badge' ? ' · click to show them' : '');
      this.tooltip.style.left = `${point.x + 12}px`;
      this.tooltip.style.top = `${point.y + 12}px`;
      this.tooltip.hidden = false;
    } else {
      this.tooltip.hidden = true;
    }
    this.invalidate();
  }

  key(e) {
    const step = 60;
    const centre = [this.viewport.width / 2, this.viewport.height / 2];
    const actions = {
      ArrowLeft: () => this.viewport.panBy(step, 0),
      ArrowRight: () => this.viewport.panBy(-step, 0),
      ArrowUp: () => this.viewport.panBy(0, step),
      ArrowDown: () => this.viewport.panBy(0, -step),
      '+': () => this.viewport.zoomAt(...centre, 1.25),
      '=': () => this.viewport.zoomAt(...centre, 1.25),
      '-': () => this.viewport.zoomAt(...centre, 0.8),
      0: () => this.fit(),
      Escape: () => {
        this.select(null);
        if (this.marks.region) {
          this.selectRegion(null);
        }
      },
    };
    const action = actions[e.key];
    if (action) {
      e.preventDefault();
      action();
      this.invalidate();
    }
  }

  // ---- DOM

  buildDom(element) {
    const doc = element.ownerDocument;
    const make = (tag, className, parent) => {
      const node = doc.createElement(tag);
      node.className = className;
      parent.append(node);
      return node;
    };
    this.root = make('div', 'hg-topology', element);
    this.root.topologyGraph = this;
    const toolbar = make('div', 'hg-topology-toolbar', this.root);
    this.searchBox = make('input', 'hg-topology-search', toolbar);
    this.searchBox.type = 'search';
    this.searchBox.placeholder = 'Search dpid, MAC or IP (Enter: next)';
    this.searchBox.setAttribute('aria-label', 'Search the topology');
    this.matchCount = make('span', 'hg-topology-matches', toolbar);
    this.fitButton = make('button', 'hg-topology-fit', toolbar);
    this.fitButton.type = 'button';
    this.fitButton.textContent = 'Fit';
    // what the colours mean: the switches' inferred roles (redrawn with each topology) and the links' use
    this.roleLegend = make('span', 'hg-topology-legend hg-topology-roles', toolbar);
    const legend = make('span', 'hg-topology-legend hg-topology-utilisation', toolbar);
    make('span', 'hg-topology-legend-title', legend).textContent = 'link use:';
    ['not measured', '< 30 %', '< 60 %', '< 85 %', '≥ 85 %'].forEach((label, band) => {
      const key = make('span', 'hg-topology-legend-key', legend);
      key.style.setProperty('--band-colour', UTILISATION_COLOURS[band]);
      key.textContent = label;
    });
    this.stage = make('div', 'hg-topology-stage', this.root);
    this.canvas = make('canvas', 'hg-topology-canvas', this.stage);
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute('aria-label',
      'Topology graph: drag to pan, wheel to zoom, click for details, shift and drag to select a region');
    this.tooltip = make('div', 'hg-topology-tooltip', this.stage);
    this.tooltip.hidden = true;
    this.details = make('aside', 'hg-topology-details', this.stage);
    this.details.hidden = true;
    this.closeButton = make('button', 'hg-topology-close', this.details);
    this.closeButton.type = 'button';
    this.closeButton.textContent = '×';
    this.closeButton.setAttribute('aria-label', 'Close details');
    this.detailsTitle = make('h3', 'hg-topology-details-title', this.details);
    this.detailsRows = make('dl', 'hg-topology-details-rows', this.details);
  }

  /** The role legend: one colour per inferred role this topology has, and the hosts' squares. */
  showRoles(layerCount) {
    const doc = this.root.ownerDocument;
    const keys = [];
    const named = new Set();
    for (let layer = 0; layer < layerCount; layer++) {
      const name = roleName(layer, layerCount);
      if (!named.has(name)) {
        named.add(name);
        keys.push([name, ROLE_COLOURS[Math.min(layer, ROLE_COLOURS.length - 1)], 'hg-topology-role-key']);
      }
    }
    keys.push(['host', HOST_COLOUR, 'hg-topology-host-key']);
    this.roleLegend.replaceChildren(...keys.map(([name, colour, className]) => {
      const key = doc.createElement('span');
      key.className = className;
      key.style.setProperty('--role-colour', colour);
      key.textContent = name;
      return key;
    }));
  }

  showDetails(item) {
    if (!item || !this.scene) {
      this.details.hidden = true;
      return;
    }
    const text = describe(this.scene, item);
    this.detailsTitle.textContent = text.title;
    this.detailsRows.replaceChildren();
    for (const [label, value] of text.rows) {
      const dt = this.root.ownerDocument.createElement('dt');
      dt.textContent = label;
      const dd = this.root.ownerDocument.createElement('dd');
      dd.textContent = value;
      this.detailsRows.append(dt, dd);
    }
    this.details.hidden = false;
  }
}

function distanceToSegment(px, py, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / lengthSquared));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}
