// Long work on the main thread, cut into slices so input and painting are never held up for long.
//
// The work is a generator that yields now and then (every few hundred items); runInSlices runs it
// checking the clock at each yield, until the slice's time budget is spent, then gives the event loop back and carries on in a
// new task. A generator that finishes returns its result, which the promise resolves to.

const DEFAULT_BUDGET_MS = 8;

/** Runs `work` (an iterator) in slices of about `budgetMs`; resolves to its return value. */
export function runInSlices(work, { budgetMs = DEFAULT_BUDGET_MS, signal } = {}) {
  return new Promise((resolve, reject) => {
    const slice = () => {
      if (signal?.aborted) {
        reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
        return;
      }
      const end = performance.now() + budgetMs;
      try {
        for (;;) {
          const step = work.next();
          if (step.done) {
            resolve(step.value);
            return;
          }
          if (performance.now() >= end) {
            nextTask(slice);
            return;
          }
        }
      } catch (e) {
        reject(e);
      }
    };
    nextTask(slice);
  });
}

// A new task rather than a microtask, so pending input and rendering run in between. A MessageChannel
// is not clamped to 4 ms the way nested setTimeout is.
const channel = new MessageChannel();
const queue = [];
channel.port1.onmessage = () => queue.shift()();

function nextTask(fn) {
  queue.push(fn);
  channel.port2.postMessage(null);
}
