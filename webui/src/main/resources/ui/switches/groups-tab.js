// A switch's groups with their buckets and counters (/api/v1/switches/<dpid>/groups; OpenFlow 1.1+).

import { el } from '/ui/dom.js';
import { switchApi } from '/ui/switches/paths.js';
import { age, count } from '/ui/switches/format.js';
import { renderCountedList } from '/ui/switches/counted-list.js';

function bucketText(b) {
  const parts = [];
  if (b.weight) parts.push('weight ' + b.weight);
  if (b.watchPort && b.watchPort !== 'null' && b.watchPort !== 'any') parts.push('watch port ' + b.watchPort);
  parts.push(b.actions.length ? b.actions.join(', ') : 'drop');
  return parts.join(': ');
}

const COLUMNS = [
  { key: 'groupId', title: 'Group', numeric: true },
  { key: 'type', title: 'Type' },
  { key: 'buckets', title: 'Buckets', text: (g) => g.buckets.map(bucketText).join(' | '),
    cell: (g) => el('ol', { class: 'hg-buckets' }, g.buckets.map((b) => el('li', {}, bucketText(b)))) },
  { key: 'referenceCount', title: 'Flows using it', numeric: true, text: (g) => count(g.referenceCount) },
  { key: 'packets', title: 'Packets', numeric: true, text: (g) => count(g.packets) },
  { key: 'bytes', title: 'Bytes', numeric: true, text: (g) => count(g.bytes) },
  { key: 'durationSeconds', title: 'Age', numeric: true, text: (g) => age(g.durationSeconds) },
];

export async function renderGroups(element, api, sw) {
  await renderCountedList(element, api, {
    path: switchApi(sw.dpid, '/groups'), what: 'groups', columns: COLUMNS, rowKey: (g) => String(g.groupId),
    className: 'hg-groups',
  });
}
