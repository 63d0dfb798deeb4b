// An experiment's samples over REST: its sample times, and the snapshot at one of them. A slider asks
// for many snapshots quickly: one request is in flight at a time and only the latest asked for is
// fetched after it (latest wins); answers are kept (up to CACHE_SIZE) so moving back is free.

const CACHE_SIZE = 256;

/** The index of the last time at or before `t` (epoch ms) in sorted `times`; 0 when t is before them all. */
export function indexAtOrBefore(times, t) {
  let lo = 0;
  let hi = times.length - 1;
  if (hi < 0) return -1;
  if (t < times[0]) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= t) lo = mid; else hi = mid - 1;
  }
  return lo;
}

/** The index of the time nearest `t` in sorted `times`. */
export function nearestIndex(times, t) {
  const i = indexAtOrBefore(times, t);
  if (i < 0 || i === times.length - 1) return i;
  return Math.abs(times[i + 1] - t) < Math.abs(times[i] - t) ? i + 1 : i;
}

/** Up to `count` indices spread evenly over [0, length), the first and the last among them. */
export function spreadIndices(length, count) {
  if (length <= count) return Array.from({ length }, (_, i) => i);
  const out = new Set();
  for (let k = 0; k < count; k++) out.add(Math.round((k * (length - 1)) / (count - 1)));
  return [...out];
}

/** The busiest measured link of a snapshot: its utilisation, or null when no link was measured. */
export function maxLinkUtilisation(snapshot) {
  let max = null;
  for (const l of snapshot?.links ?? []) {
    if (typeof l.utilisation === 'number' && (max === null || l.utilisation > max)) max = l.utilisation;
  }
  return max;
}

export class SnapshotSource {
  constructor(api, base) {
    this.api = api;
    this.base = base;
    this.cache = new Map();
    this.busy = false;
    this.wanted = null;
    this.seq = 0;
  }

  async times() {
    const answer = await this.api.get(`${this.base}/times`);
    return (answer.times ?? []).map((iso) => ({ iso, ms: Date.parse(iso) }));
  }

  /** The snapshot at `iso` (from the cache or the controller). */
  async at(iso) {
    if (this.cache.has(iso)) return this.cache.get(iso);
    const snapshot = await this.api.get(`${this.base}/snapshot?at=${encodeURIComponent(iso)}`);
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value);
    this.cache.set(iso, snapshot);
    return snapshot;
  }

  /**
   * Asks for the snapshot at `iso` for the view: `show(snapshot, iso)` is called with it unless a later
   * request overtook it; `fail(error, iso)` when it could not be had.
   */
  request(iso, show, fail) {
    const seq = ++this.seq;
    if (this.cache.has(iso)) {
      this.wanted = null;
      show(this.cache.get(iso), iso);
      return;
    }
    this.wanted = { iso, show, fail, seq };
    if (!this.busy) this.next();
  }

  async next() {
    const job = this.wanted;
    if (!job) return;
    this.wanted = null;
    this.busy = true;
    try {
      const snapshot = await this.at(job.iso);
      if (job.seq === this.seq) job.show(snapshot, job.iso);
    } catch (e) {
      if (job.seq === this.seq) job.fail(e, job.iso);
    } finally {
      this.busy = false;
    }
    if (this.wanted) this.next();
  }
}
