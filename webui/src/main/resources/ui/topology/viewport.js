// The view onto the graph: screen = world * scale + offset, in CSS pixels.

const MAX_SCALE = 16;

export class Viewport {
  constructor() {
    this.scale = 1;
    this.offsetX = 0;
    this.offsetY = 0;
    this.width = 0;
    this.height = 0;
    this.minScale = 0.01;
  }

  resize(width, height) {
    // keep the world point at the centre where it was
    const centre = this.toWorld(this.width / 2, this.height / 2);
    this.width = width;
    this.height = height;
    this.offsetX = width / 2 - centre.x * this.scale;
    this.offsetY = height / 2 - centre.y * this.scale;
  }

  /** Shows all of `bounds` with `margin` CSS pixels around it; zooming out stops a little beyond this. */
  fit(bounds, margin = 16) {
    const w = Math.max(1, bounds.maxX - bounds.minX);
    const h = Math.max(1, bounds.maxY - bounds.minY);
    const scale = Math.min((this.width - 2 * margin) / w, (this.height - 2 * margin) / h);
    this.scale = Math.max(1e-4, Math.min(MAX_SCALE, scale));
    this.minScale = this.scale / 4;
    this.centreOn((bounds.minX + bounds.maxX) / 2, (bounds.minY + bounds.maxY) / 2);
  }

  centreOn(x, y, scale = this.scale) {
    this.scale = this.clamp(scale);
    this.offsetX = this.width / 2 - x * this.scale;
    this.offsetY = this.height / 2 - y * this.scale;
  }

  /** Multiplies the scale by `factor`, keeping the world point under (screenX, screenY) in place. */
  zoomAt(screenX, screenY, factor) {
    const anchor = this.toWorld(screenX, screenY);
    this.scale = this.clamp(this.scale * factor);
    this.offsetX = screenX - anchor.x * this.scale;
    this.offsetY = screenY - anchor.y * this.scale;
  }

  panBy(dx, dy) {
    this.offsetX += dx;
    this.offsetY += dy;
  }

  toWorld(screenX, screenY) {
    return { x: (screenX - this.offsetX) / this.scale, y: (screenY - this.offsetY) / this.scale };
  }

  toScreen(x, y) {
    return { x: x * this.scale + this.offsetX, y: y * this.scale + this.offsetY };
  }

  /** The world rectangle on screen, widened by `margin` world units. */
  visibleWorld(margin = 0) {
    const topLeft = this.toWorld(0, 0);
    const bottomRight = this.toWorld(this.width, this.height);
    return {
      minX: topLeft.x - margin, minY: topLeft.y - margin,
      maxX: bottomRight.x + margin, maxY: bottomRight.y + margin,
    };
  }

  clamp(scale) {
    return Math.min(MAX_SCALE, Math.max(this.minScale, scale));
  }
}
