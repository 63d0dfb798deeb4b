// How the switches pages write what a switch reports: matches and instructions in the spirit of
// ovs-ofctl, counts, rates, ages and times. Every function takes what the REST API gives (numbers,
// strings, null where a switch or version does not say) and returns text; none touches the page.

import { bytes } from '/ui/dom.js';

/** OpenFlow port numbers as the switch resources give them: LOCAL is 4294967294, not -2. */
export function unsignedPort(n) {
  const v = Number(n);
  return v < 0 ? v + 4294967296 : v;
}

/** A flow's match: "in_port=1, eth_type=0x800", or "any" for the table-miss flow's empty match. */
export function matchText(match) {
  const fields = Object.entries(match || {});
  return fields.length ? fields.map(([k, v]) => k + '=' + v).join(', ') : 'any';
}

/** What a flow does: its apply-actions as they are ("output=2, output=3"), other instructions named. */
export function instructionsText(instructions) {
  const parts = (instructions || []).map((i) => {
    if (i.type === 'apply_actions') return i.actions.length ? i.actions.join(', ') : 'drop';
    if (i.actions) return i.type + '(' + i.actions.join(', ') + ')';
    return i.value === null || i.value === undefined ? i.type : i.type + '=' + i.value;
  });
  return parts.length ? parts.join('; ') : 'drop';
}

/** A cookie ("0xfeed", "0x000000000000feed") as a number that sorts and compares: equal cookies, equal values. */
export function cookieValue(text) {
  try {
    return BigInt(text);
  } catch (e) {
    return BigInt(0);
  }
}

/** A counter with thousands separators; empty when the switch does not count it. */
export function count(n) {
  return n === undefined || n === null ? '' : Number(n).toLocaleString('en-US');
}

/** Bits per second as bytes per second: "1.50 KiB/s"; a dash when there is no rate yet. */
export function byteRate(bitsPerSecond) {
  return bitsPerSecond === undefined || bitsPerSecond === null ? '—' : bytes(bitsPerSecond / 8, '/s');
}

/** Packets per second, one decimal; a dash when there is no rate yet. */
export function packetRate(perSecond) {
  return perSecond === undefined || perSecond === null ? '—' : perSecond.toFixed(1);
}

/** A port speed given in kbit/s: "10 Gbit/s". */
export function speed(kbps) {
  if (kbps === undefined || kbps === null || kbps === 0) return '';
  const units = [[1e9, 'Tbit/s'], [1e6, 'Gbit/s'], [1e3, 'Mbit/s'], [1, 'kbit/s']];
  const [size, unit] = units.find(([s]) => kbps >= s) || units[units.length - 1];
  const v = kbps / size;
  return (Number.isInteger(v) ? v : v.toFixed(1)) + ' ' + unit;
}

/** An age in seconds: "12s", "5m 07s", "1h 02m", "3d 04h". */
export function age(seconds) {
  if (seconds === undefined || seconds === null) return '';
  const s = Math.max(0, Math.floor(seconds));
  const two = (n) => String(n).padStart(2, '0');
  if (s < 60) return s + 's';
  if (s < 3600) return Math.floor(s / 60) + 'm ' + two(s % 60) + 's';
  if (s < 86400) return Math.floor(s / 3600) + 'h ' + two(Math.floor(s / 60) % 60) + 'm';
  return Math.floor(s / 86400) + 'd ' + two(Math.floor(s / 3600) % 24) + 'h';
}

/** An ISO-8601 instant in the browser's time zone: "2024-05-01 14:03:07". */
export function localTime(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const two = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** The clock time of now, for "read at ..." notes. */
export function clockNow() {
  return localTime(new Date().toISOString()).slice(11);
}
