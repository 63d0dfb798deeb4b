// Keeping a page's data fresh while the operator looks at it: a load repeated every so often for as
// long as its element is in the document (the shell replaces the page's element on every route, which
// ends the repetition), loads on demand that never overlap, and a debounced trigger for live events.

/**
 * Runs load() now and then again every periodMs() milliseconds while element is connected. Returns
 * a function that loads at once (a refresh button, a live event); while a load is running, another
 * request is folded into one load after it.
 */
export function keepFresh(element, load, periodMs) {
  let timer = null;
  let running = null;
  let again = false;
  const run = async () => {
    if (running) {
      again = true;
      return running;
    }
    clearTimeout(timer);
    running = (async () => {
      try {
        await load();
      } catch (e) {
        // a load shows the failures it expects; anything else must not end the repetition
        console.error('refreshing the page failed', e);
      } finally {
        running = null;
      }
    })();
    await running;
    if (again) {
      again = false;
      return run();
    }
    if (element.isConnected) timer = setTimeout(() => { if (element.isConnected) run(); }, periodMs());
    return undefined;
  };
  return run;
}

/** fn, called once ms after the last of a burst of calls. */
export function debounced(fn, ms = 300) {
  let timer = null;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}
