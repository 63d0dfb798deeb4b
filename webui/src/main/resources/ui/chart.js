// A small time-series chart on canvas: lines over the run, a time axis, a value axis with round ticks,
// and a marker at the selected instant. The lines are drawn when the data or the size changes; moving
// the marker redraws only a second canvas on top, so a slider can move it every frame. A series longer
// than the chart is wide is cut to its minimum and maximum per pixel column before drawing.
// A click picks the instant under the pointer (onPick), for the page's time slider.

import { el } from '/ui/dom.js';

export const PALETTE = ['#2a7ab0', '#d63a3a', '#2e9e4f', '#e8772e', '#6a4fb3', '#c9a927', '#17a2b8', '#8c564b',
  '#e377c2', '#7f7f7f'];
const PAD = { left: 52, right: 12, top: 8, bottom: 22 };
const MAX_LEGEND = 8;

/** About `count` round values covering [min, max]: steps of 1, 2 or 5 times a power of ten. */
export function niceTicks(min, max, count = 5) {
  if (!(max > min)) {
    return [min];
  }
  const raw = (max - min) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const ticks = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) {
    ticks.push(Number(v.toPrecision(12)));
  }
  return ticks;
}

/** The smallest round value (a tick of niceTicks) at or above `top`: a value axis's end. */
export function niceCeiling(top) {
  const ticks = niceTicks(0, top, 4);
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : top;
  return step > 0 ? Number((Math.ceil(top / step - 1e-9) * step).toPrecision(12)) : top;
}

const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400]
  .map((s) => s * 1000);

/** About `count` instants (epoch ms) at round steps (1 s ... 1 day) between t0 and t1. */
export function timeTicks(t0, t1, count = 6) {
  if (!(t1 > t0)) {
    return [t0];
  }
  const step = TIME_STEPS.find((s) => (t1 - t0) / s <= count) ?? TIME_STEPS[TIME_STEPS.length - 1];
  const ticks = [];
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
    ticks.push(t);
  }
  return ticks;
}

/** The linear map from [d0, d1] onto [r0, r1], with invert. */
export function linear(d0, d1, r0, r1) {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const f = (v) => r0 + (v - d0) * k;
  f.invert = (r) => (k === 0 ? d0 : d0 + (r - r0) / k);
  return f;
}

/**
 * The points of a series (sorted [t, v] pairs) as drawn `width` pixels wide over [t0, t1]: unchanged
 * when there are fewer than two per column, otherwise each column's first, minimum, maximum and last
 * point, in time order, so that spikes stay visible.
 */
export function decimate(points, t0, t1, width) {
  if (points.length <= 2 * width || !(t1 > t0)) {
    return points;
  }
  const out = [];
  let column = null;
  let bucket = [];
  const flush = () => {
    if (bucket.length === 0) return;
    let lo = bucket[0];
    let hi = bucket[0];
    for (const p of bucket) {
      if (p[1] < lo[1]) lo = p;
      if (p[1] > hi[1]) hi = p;
    }
    const keep = [bucket[0], lo, hi, bucket[bucket.length - 1]].sort((a, b) => a[0] - b[0]);
    for (let i = 0; i < keep.length; i++) {
      if (i === 0 || keep[i] !== keep[i - 1]) out.push(keep[i]);
    }
    bucket = [];
  };
  for (const p of points) {
    const c = Math.floor(((p[0] - t0) / (t1 - t0)) * width);
    if (c !== column) {
      flush();
      column = c;
    }
    bucket.push(p);
  }
  flush();
  return out;
}

/** A time chart: new TimeChart({title, format, onPick}); parent.append(chart.element); chart.setSeries(...). */
export class TimeChart {
  constructor({ title = '', format = String, onPick = null, height = 160 } = {}) {
    this.format = format;
    this.onPick = onPick;
    this.series = [];
    this.domain = { t0: 0, t1: 1, yMin: 0, yMax: 1 };
    this.marker = null;
    this.base = el('canvas', { class: 'time-chart-base' });
    this.overlay = el('canvas', { class: 'time-chart-overlay' });
    this.stage = el('div', { class: 'time-chart-stage', style: `height: ${height}px` }, this.base, this.overlay);
    this.legend = el('div', { class: 'time-chart-legend' });
    this.titleElement = el('div', { class: 'time-chart-title' }, title);
    this.element = el('figure', { class: 'time-chart' }, this.titleElement, this.stage, this.legend);
    this.overlay.addEventListener('click', (e) => this.pick(e.offsetX));
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(this.stage);
  }

  /**
   * Replaces the lines: series [{name, points: [[epochMs, value], ...] sorted, colour?}], over the
   * domain given (t0, t1 and the value range; by default the data's, from 0).
   */
  setSeries(series, { t0, t1, yMin, yMax } = {}) {
    this.series = series.map((s, i) => ({ ...s, colour: s.colour ?? PALETTE[i % PALETTE.length] }));
    let lo = Infinity;
    let hi = -Infinity;
    let first = Infinity;
    let last = -Infinity;
    for (const s of this.series) {
      for (const [t, v] of s.points) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
        if (t < first) first = t;
        if (t > last) last = t;
      }
    }
    const top = yMax ?? (hi > 0 ? hi : 1);
    this.domain = {
      t0: t0 ?? (Number.isFinite(first) ? first : 0), t1: t1 ?? (Number.isFinite(last) ? last : 1),
      yMin: yMin ?? Math.min(0, Number.isFinite(lo) ? lo : 0), yMax: yMax ?? niceCeiling(top),
    };
    const data = this.stage.dataset;
    data.series = this.series.length;
    data.points = this.series.reduce((n, s) => n + s.points.length, 0);
    data.yMax = this.domain.yMax;
    this.legend.replaceChildren(...(this.series.length <= MAX_LEGEND
      ? this.series.map((s) => el('span', { class: 'time-chart-key', style: `--key-colour: ${s.colour}` }, s.name))
      : [el('span', { class: 'hint' }, `${this.series.length} series`)]));
    this.drawBase();
    this.drawMarker();
  }

  /** Moves the marker to an instant (epoch ms), or hides it (null). */
  setMarker(t) {
    this.marker = t;
    this.drawMarker();
  }

  resize() {
    const box = this.stage.getBoundingClientRect();
    if (box.width === 0) return;
    const ratio = window.devicePixelRatio || 1;
    for (const c of [this.base, this.overlay]) {
      c.width = Math.round(box.width * ratio);
      c.height = Math.round(box.height * ratio);
      c.style.width = `${box.width}px`;
      c.style.height = `${box.height}px`;
    }
    this.size = { width: box.width, height: box.height, ratio };
    this.drawBase();
    this.drawMarker();
  }

  scales() {
    const { width, height } = this.size;
    const { t0, t1, yMin, yMax } = this.domain;
    return { x: linear(t0, t1, PAD.left, width - PAD.right), y: linear(yMin, yMax, height - PAD.bottom, PAD.top) };
  }

  drawBase() {
    if (!this.size) return;
    const { width, height, ratio } = this.size;
    const ctx = this.base.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const { x, y } = this.scales();
    const { t0, t1, yMin, yMax } = this.domain;
    ctx.font = '11px sans-serif';
    ctx.fillStyle = '#44515e';
    ctx.strokeStyle = '#e3e7eb';
    ctx.lineWidth = 1;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const v of niceTicks(yMin, yMax, 4)) {
      const py = Math.round(y(v)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(PAD.left, py);
      ctx.lineTo(width - PAD.right, py);
      ctx.stroke();
      ctx.fillText(this.format(v), PAD.left - 4, py);
    }
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const t of timeTicks(t0, t1, Math.max(2, Math.floor((width - PAD.left) / 90)))) {
      const d = new Date(t);
      const label = [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
      ctx.fillText(label, x(t), height - PAD.bottom + 4);
    }
    if (this.series.every((s) => s.points.length === 0)) {
      ctx.fillText('no data', (PAD.left + width) / 2, height / 2 - 6);
      return;
    }
    ctx.save();
    ctx.beginPath();
    ctx.rect(PAD.left, PAD.top - 1, width - PAD.left - PAD.right, height - PAD.top - PAD.bottom + 2);
    ctx.clip();
    ctx.lineWidth = this.series.length > MAX_LEGEND ? 1 : 1.5;
    ctx.globalAlpha = this.series.length > MAX_LEGEND ? 0.6 : 1;
    const columns = Math.max(1, width - PAD.left - PAD.right);
    for (const s of this.series) {
      const points = decimate(s.points, t0, t1, columns);
      ctx.beginPath();
      points.forEach(([t, v], i) => (i === 0 ? ctx.moveTo(x(t), y(v)) : ctx.lineTo(x(t), y(v))));
      if (points.length === 1) {
        ctx.arc(x(points[0][0]), y(points[0][1]), 2, 0, 2 * Math.PI);
      }
      ctx.strokeStyle = s.colour;
      ctx.stroke();
    }
    ctx.restore();
  }

  drawMarker() {
    if (!this.size) return;
    const { width, height, ratio } = this.size;
    const ctx = this.overlay.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    if (this.marker === null) {
      delete this.stage.dataset.markerX;
      return;
    }
    const px = Math.round(this.scales().x(this.marker)) + 0.5;
    this.stage.dataset.markerX = String(Math.round(px));
    ctx.beginPath();
    ctx.moveTo(px, PAD.top);
    ctx.lineTo(px, height - PAD.bottom);
    ctx.strokeStyle = '#e0007a';
    ctx.lineWidth = 1.5;
    ctx.stroke();
  }

  pick(offsetX) {
    if (!this.onPick || !this.size) return;
    this.onPick(this.scales().x.invert(offsetX));
  }

  destroy() {
    this.resizeObserver.disconnect();
  }
}
