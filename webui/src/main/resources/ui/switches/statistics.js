// What the statistics app says about a switch (GET /api/v1/stats/switches/<dpid>/...), and what its
// absence means. The app is optional: when it is not running its paths answer 404 without a field;
// when it runs but has not polled the switch yet, 404 naming the dpid.

/**
 * The outcome of asking the statistics app: { rates } on success, else { absent: true, why } where
 * why is a sentence for the operator.
 */
export async function askStatistics(api, path) {
  try {
    return { rates: await api.get(path) };
  } catch (e) {
    if (e.status === 404 && e.field === 'dpid') {
      return { absent: true, why: 'The statistics app has not polled this switch yet: rates appear after its first two polls.' };
    }
    if (e.status === 404 || e.status === 503) {
      return { absent: true, why: 'The statistics app is not running: no rates. Start it to see them.' };
    }
    return { absent: true, why: 'No rates from the statistics app: ' + e.message };
  }
}

/** How often the app polls, from the instants of consecutive samples (the median gap), or null. */
export function pollInterval(instants) {
  const times = [...new Set(instants.map((t) => Date.parse(t)).filter((t) => !Number.isNaN(t)))].sort((a, b) => a - b);
  const gaps = [];
  for (let i = 1; i < times.length; i++) gaps.push(times[i] - times[i - 1]);
  if (!gaps.length) return null;
  gaps.sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)];
}

/** A refresh period near the poll interval: never faster than 1 s, never slower than a minute. */
export function refreshPeriod(intervalMs, fallbackMs = 5000) {
  return Math.min(60000, Math.max(1000, intervalMs || fallbackMs));
}
