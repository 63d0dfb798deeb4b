// How the Virtue page writes numbers and times: utilisations as percentages, rates in bit/s, instants
// in the browser's time zone. A missing value is written "not measured", never 0.

export const NOT_MEASURED = 'not measured';

/** 0.4312 -> "43.1 %"; null -> "not measured". */
export function percent(fraction) {
  return fraction === null || fraction === undefined || Number.isNaN(fraction)
    ? NOT_MEASURED : `${(100 * fraction).toFixed(1)} %`;
}

/** 12_500_000 -> "12.5 Mbit/s". */
export function bitRate(bitsPerSecond) {
  if (bitsPerSecond === null || bitsPerSecond === undefined || Number.isNaN(bitsPerSecond)) {
    return NOT_MEASURED;
  }
  const units = ['bit/s', 'kbit/s', 'Mbit/s', 'Gbit/s', 'Tbit/s'];
  let v = Number(bitsPerSecond);
  let i = 0;
  while (Math.abs(v) >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${i === 0 ? Math.round(v) : v.toFixed(v < 10 ? 2 : 1)} ${units[i]}`;
}

/** A number as short as it reads well: 3, 0.25, 1.5k, 2.4M. */
export function quantity(value) {
  if (value === null || value === undefined || Number.isNaN(value)) {
    return '';
  }
  const a = Math.abs(value);
  if (a >= 1e9) return `${(value / 1e9).toFixed(1)}G`;
  if (a >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (a >= 1e4) return `${(value / 1e3).toFixed(1)}k`;
  if (a >= 100 || Number.isInteger(value)) return String(Math.round(value));
  return String(Number(value.toPrecision(3)));
}

/** An ISO instant (or epoch milliseconds) as local date and time to the second; '' for none. */
export function instant(value) {
  if (value === null || value === undefined || value === '') {
    return '';
  }
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) {
    return String(value);
  }
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Milliseconds as "2 min 05 s" (or "45 s", "1 h 02 min"). */
export function duration(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}
