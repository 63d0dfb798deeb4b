// The links, the costly part of a frame: at 1,000 switches there are over 10,000 of them, many crossing
// the whole graph, and rasterising them all takes longer than a frame on a machine without a GPU. So
// they are drawn into an image a margin larger than the view, and a frame only copies that image:
//  - a pan within the margin moves the image;
//  - a zoom, or a pan past the margin, scales or moves the image for now (edges may be blank) and a new
//    image is drawn once the view has been still for REDRAW_AFTER_MS, or at once when the old one is
//    too far off (scaled more than MAX_STALE_ZOOM times, or off screen);
//  - a new topology draws a new image.
// A new image is drawn in the background, a thousand links per task, into a second canvas that
// replaces the shown one when complete: the main thread is never held up for the whole of it.
// Only links that cross the image are drawn, each clipped to it.

import { UTILISATION_COLOURS } from './scene.js';
import { runInSlices } from './slices.js';

const MARGIN = 0.25; // of the view's width and height, on each side
const REDRAW_AFTER_MS = 120;
const MAX_STALE_ZOOM = 2;
const LINKS_PER_STROKE = 1000;
// Zoomed far out, thousands of links overlap: fainter lines show where they are dense, and the busiest
// (drawn last, most opaque) stand out.
const OVERVIEW_SCALE = 0.5;
const OVERVIEW_ALPHA = [0.3, 0.3, 0.45, 0.6, 0.85];

export class LinkLayer {
  /** `onImage` is called when a new image is ready to be shown (the graph then draws a frame). */
  constructor(doc, onImage) {
    this.shown = doc.createElement('canvas');
    this.drawing = doc.createElement('canvas');
    this.onImage = onImage;
    this.image = null; // what `shown` holds: {scene, scale, originX, originY, width, height, ratio, linksDrawn}
    this.job = null; // the image being drawn: {target, abort}
    this.redrawTimer = null;
  }

  /**
   * Copies the current image onto `ctx` (in CSS pixel space), starting a new one if the view needs it.
   * Returns {linksDrawn, complete}: the links in the image shown, and whether it is exact for this view.
   */
  draw(ctx, scene, viewport, ratio) {
    if (viewport.width <= 0 || viewport.height <= 0) {
      return { linksDrawn: 0, complete: false }; // no room (the page is being left): nothing to draw into
    }
    const target = this.targetFor(scene, viewport, ratio);
    const image = this.image;
    const fits = image !== null && sameFrame(image, target);
    const exact = fits && image.scale === target.scale && this.covers(image, viewport);
    const bearable = fits && !exact && this.bearable(image, viewport);
    if (exact) {
      clearTimeout(this.redrawTimer);
    } else {
      if (bearable) {
        this.redrawWhenStill(scene, viewport, ratio);
      } else if (!(this.job && sameFrame(this.job.target, target) && this.bearable(this.job.target, viewport))) {
        this.start(target);
      }
    }
    if (image !== null) {
      this.blit(ctx, viewport); // an image of the topology before an update, until the new one is ready
    }
    return { linksDrawn: image?.scene === scene ? image.linksDrawn : 0, complete: exact };
  }

  targetFor(scene, viewport, ratio) {
    const marginX = Math.ceil(viewport.width * MARGIN);
    const marginY = Math.ceil(viewport.height * MARGIN);
    return {
      scene, ratio, scale: viewport.scale,
      originX: viewport.offsetX + marginX, // image pixel = world * scale + origin
      originY: viewport.offsetY + marginY,
      width: viewport.width + 2 * marginX,
      height: viewport.height + 2 * marginY,
    };
  }

  redrawWhenStill(scene, viewport, ratio) {
    clearTimeout(this.redrawTimer);
    this.redrawTimer = setTimeout(() => {
      this.redrawTimer = null;
      this.start(this.targetFor(scene, viewport, ratio));
    }, REDRAW_AFTER_MS);
  }

  start(target) {
    clearTimeout(this.redrawTimer);
    this.redrawTimer = null;
    this.job?.abort.abort();
    const abort = new AbortController();
    const job = { target, abort };
    this.job = job;
    runInSlices(this.render(target), { signal: abort.signal, budgetMs: 4 }).then((linksDrawn) => {
      if (this.job === job) {
        this.job = null;
        [this.shown, this.drawing] = [this.drawing, this.shown];
        this.image = { ...target, linksDrawn };
        this.onImage();
      }
    }, () => {}); // aborted: a newer image replaced it
  }

  /** Draws the links for `target` into the hidden canvas, one stroke per task; returns the count drawn. */
  * render(target) {
    const { scene, ratio, scale: s, originX, originY, width, height } = target;
    const canvas = this.drawing;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
    }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    // one device pixel: Skia draws such strokes as hairlines, over ten times faster than wider ones,
    // which go through its stroker and then fill one huge self-overlapping path
    ctx.lineWidth = 1 / ratio;
    const pad = 4 / s; // the image's area in world units, a little larger so clipped ends are not seen
    const area = {
      minX: -originX / s - pad, minY: -originY / s - pad,
      maxX: (width - originX) / s + pad, maxY: (height - originY) / s + pad,
    };
    const { model, layout } = scene;
    const { x, y } = layout;
    const clipped = new Float64Array(4);
    let linksDrawn = 0;
    for (let band = 0; band < scene.linksByBand.length; band++) {
      const links = scene.linksByBand[band];
      ctx.strokeStyle = UTILISATION_COLOURS[band];
      ctx.globalAlpha = s < OVERVIEW_SCALE ? OVERVIEW_ALPHA[band] : 1;
      for (let from = 0; from < links.length; from += LINKS_PER_STROKE) {
        ctx.beginPath();
        const to = Math.min(links.length, from + LINKS_PER_STROKE);
        for (let k = from; k < to; k++) {
          const link = model.links[links[k]];
          if (clip(x[link.a], y[link.a], x[link.b], y[link.b], area, clipped)) {
            // in image pixels, so the path's coordinates stay small whatever the zoom
            ctx.moveTo(clipped[0] * s + originX, clipped[1] * s + originY);
            ctx.lineTo(clipped[2] * s + originX, clipped[3] * s + originY);
            linksDrawn++;
          }
        }
        ctx.stroke();
        yield;
      }
    }
    ctx.globalAlpha = 1;
    return linksDrawn;
  }

  blit(ctx, viewport) {
    if (this.shown.width === 0 || this.shown.height === 0) {
      return; // drawImage throws on an empty canvas
    }
    const r = this.screenRect(this.image, viewport);
    ctx.drawImage(this.shown, r.left, r.top, r.right - r.left, r.bottom - r.top);
  }

  covers(image, viewport) {
    const r = this.screenRect(image, viewport);
    return r.left <= 0 && r.top <= 0 && r.right >= viewport.width && r.bottom >= viewport.height;
  }

  /** Whether `image`, scaled and moved to the view, is close enough to show while the view moves. */
  bearable(image, viewport) {
    const zoom = viewport.scale / image.scale;
    if (zoom > MAX_STALE_ZOOM || zoom < 1 / MAX_STALE_ZOOM) {
      return false;
    }
    const r = this.screenRect(image, viewport);
    return r.left < viewport.width && r.top < viewport.height && r.right > 0 && r.bottom > 0;
  }

  /** Where the image lies on screen in the current view. */
  screenRect(image, viewport) {
    const zoom = viewport.scale / image.scale;
    // the image's top left corner is world (-originX / scale, -originY / scale)
    const left = (-image.originX / image.scale) * viewport.scale + viewport.offsetX;
    const top = (-image.originY / image.scale) * viewport.scale + viewport.offsetY;
    return { left, top, right: left + image.width * zoom, bottom: top + image.height * zoom };
  }

  dispose() {
    clearTimeout(this.redrawTimer);
    this.job?.abort.abort();
  }
}

/** Whether an image drawn for `a` can serve `b`: the same topology, canvas size and pixel ratio. */
function sameFrame(a, b) {
  return a.scene === b.scene && a.ratio === b.ratio && a.width === b.width && a.height === b.height;
}

/**
 * Clips the segment (ax, ay)-(bx, by) to the rectangle (Liang and Barsky's parametric method); writes
 * the visible part into `out` and returns true, or returns false when none of it is inside.
 */
export function clip(ax, ay, bx, by, rect, out) {
  const dx = bx - ax;
  const dy = by - ay;
  const edges = CLIP_EDGES; // per edge: p (the direction across it) and q (the distance inside it)
  edges[0] = -dx; edges[1] = ax - rect.minX;
  edges[2] = dx; edges[3] = rect.maxX - ax;
  edges[4] = -dy; edges[5] = ay - rect.minY;
  edges[6] = dy; edges[7] = rect.maxY - ay;
  let t0 = 0;
  let t1 = 1;
  for (let e = 0; e < 8; e += 2) {
    const p = edges[e];
    const q = edges[e + 1];
    if (p === 0) {
      if (q < 0) {
        return false; // parallel to this edge and outside it
      }
    } else if (p < 0) {
      t0 = Math.max(t0, q / p); // entering
    } else {
      t1 = Math.min(t1, q / p); // leaving
    }
    if (t0 > t1) {
      return false;
    }
  }
  out[0] = ax + t0 * dx;
  out[1] = ay + t0 * dy;
  out[2] = ax + t1 * dx;
  out[3] = ay + t1 * dy;
  return true;
}

const CLIP_EDGES = new Float64Array(8);
