// A uniform grid over points, for "what is in this rectangle" (drawing only what is on screen) and
// "what is nearest this point" (hover and click) without looking at every point.

export class PointGrid {
  /** Indexes the points (xs[i], ys[i]) in square cells of side `cellSize`. */
  constructor(xs, ys, cellSize) {
    this.xs = xs;
    this.ys = ys;
    this.cellSize = cellSize;
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < xs.length; i++) {
      minX = Math.min(minX, xs[i]);
      maxX = Math.max(maxX, xs[i]);
      minY = Math.min(minY, ys[i]);
      maxY = Math.max(maxY, ys[i]);
    }
    if (xs.length === 0) {
      minX = minY = maxX = maxY = 0;
    }
    this.minX = minX;
    this.minY = minY;
    this.columns = Math.floor((maxX - minX) / cellSize) + 1;
    this.rows = Math.floor((maxY - minY) / cellSize) + 1;
    const cellCount = this.columns * this.rows;
    // counting sort of the points by cell: cellStart[c] .. cellStart[c + 1] index into points
    this.cellStart = new Int32Array(cellCount + 1);
    const cellOf = new Int32Array(xs.length);
    for (let i = 0; i < xs.length; i++) {
      cellOf[i] = this.cell(xs[i], ys[i]);
      this.cellStart[cellOf[i] + 1]++;
    }
    for (let c = 0; c < cellCount; c++) {
      this.cellStart[c + 1] += this.cellStart[c];
    }
    this.points = new Int32Array(xs.length);
    const next = this.cellStart.slice(0, cellCount);
    for (let i = 0; i < xs.length; i++) {
      this.points[next[cellOf[i]]++] = i;
    }
  }

  cell(x, y) {
    return this.row(y) * this.columns + this.column(x);
  }

  column(x) {
    return Math.min(this.columns - 1, Math.max(0, Math.floor((x - this.minX) / this.cellSize)));
  }

  row(y) {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((y - this.minY) / this.cellSize)));
  }

  /** Calls visit(i) for every point inside the rectangle. */
  forEachIn(minX, minY, maxX, maxY, visit) {
    if (this.points.length === 0) {
      return;
    }
    const c0 = this.column(minX);
    const c1 = this.column(maxX);
    const r0 = this.row(minY);
    const r1 = this.row(maxY);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = r * this.columns + c;
        for (let k = this.cellStart[cell]; k < this.cellStart[cell + 1]; k++) {
          const i = this.points[k];
          const x = this.xs[i];
          const y = this.ys[i];
          if (x >= minX && x <= maxX && y >= minY && y <= maxY) {
            visit(i);
          }
        }
      }
    }
  }

  /** The index of the point nearest (x, y) within `within`, or -1. */
  nearest(x, y, within) {
    let best = -1;
    let bestDistance = within * within;
    this.forEachIn(x - within, y - within, x + within, y + within, (i) => {
      const dx = this.xs[i] - x;
      const dy = this.ys[i] - y;
      const d = dx * dx + dy * dy;
      if (d <= bestDistance) {
        best = i;
        bestDistance = d;
      }
    });
    return best;
  }
}
