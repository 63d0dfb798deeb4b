// A switch's meters with their bands and counters (/api/v1/switches/<dpid>/meters; OpenFlow 1.3+).

import { el } from '/ui/dom.js';
import { switchApi } from '/ui/switches/paths.js';
import { age, count } from '/ui/switches/format.js';
import { renderCountedList } from '/ui/switches/counted-list.js';

/** Rates are in kbit/s or packets/s as the meter's flags say (KBPS, PKTPS). */
function bandText(m, b) {
  const unit = m.flags.includes('PKTPS') ? 'pkt/s' : 'kbit/s';
  let text = `${b.type} above ${b.rate} ${unit}`;
  if (b.burstSize) text += `, burst ${b.burstSize}`;
  if (b.precedenceLevel !== null && b.precedenceLevel !== undefined) text += `, precedence +${b.precedenceLevel}`;
  if (b.packets !== null && b.packets !== undefined) text += ` (${count(b.packets)} packets)`;
  return text;
}

const COLUMNS = [
  { key: 'meterId', title: 'Meter', numeric: true },
  { key: 'flags', title: 'Flags', text: (m) => m.flags.join(', ') },
  { key: 'bands', title: 'Bands', text: (m) => m.bands.map((b) => bandText(m, b)).join(' | '),
    cell: (m) => el('ol', { class: 'hg-bands' }, m.bands.map((b) => el('li', {}, bandText(m, b)))) },
  { key: 'flowCount', title: 'Flows using it', numeric: true, text: (m) => count(m.flowCount) },
  { key: 'packetsIn', title: 'Packets in', numeric: true, text: (m) => count(m.packetsIn) },
  { key: 'bytesIn', title: 'Bytes in', numeric: true, text: (m) => count(m.bytesIn) },
  { key: 'durationSeconds', title: 'Age', numeric: true, text: (m) => age(m.durationSeconds) },
];

export async function renderMeters(element, api, sw) {
  await renderCountedList(element, api, {
    path: switchApi(sw.dpid, '/meters'), what: 'meters', columns: COLUMNS, rowKey: (m) => String(m.meterId),
    className: 'hg-meters',
  });
}
