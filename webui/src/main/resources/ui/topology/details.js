// The text shown for a switch, host or link: a title and rows of label and value, for the tooltip
// (first row only) and the details panel. Values are plain text; the panel never interprets them as HTML.

import { roleName } from './layout.js';

const LIST_LIMIT = 12;

export function describe(scene, item) {
  const { model, layout } = scene;
  if (item.kind === 'switch') {
    const s = model.switches[item.index];
    const neighbours = [...model.neighbours.row(s.index)].map((t) => model.switches[t].dpid);
    const hosts = [...model.hostsOf.row(s.index)].map((h) => hostName(model.hosts[h]));
    return {
      title: `Switch ${s.dpid}`,
      summary: `${s.label} · ${roleName(layout.layer[s.index], layout.layerCount)} · ${s.degree} links · ${s.hostCount} hosts`,
      rows: [
        ['dpid', s.dpid],
        ['role (inferred)', roleName(layout.layer[s.index], layout.layerCount)],
        ['links', String(s.degree)],
        ['hosts', String(s.hostCount)],
        ...utilisationRow(s.utilisation),
        ...infoRows(s.info, ['dpid', 'utilisation']),
        ['neighbours', limited(neighbours)],
        ['attached hosts', limited(hosts)],
      ],
    };
  }
  if (item.kind === 'host') {
    const h = model.hosts[item.index];
    const at = h.switch >= 0 ? `${model.switches[h.switch].dpid} port ${h.port}` : 'not attached';
    return {
      title: `Host ${h.mac}`,
      summary: `${hostName(h)} · ${h.switch >= 0 ? `${model.switches[h.switch].label} port ${h.port}` : 'not attached'}`,
      rows: [
        ['mac', h.mac],
        ['ips', h.ips.join(', ') || '—'],
        ['attached to', at],
        ...utilisationRow(h.utilisation),
        ...infoRows(h.info, ['mac', 'ips', 'ipv4', 'ipv6', 'attachment', 'attachmentPoints', 'utilisation']),
      ],
    };
  }
  const link = model.links[item.index];
  const a = model.switches[link.a];
  const b = model.switches[link.b];
  const use = link.utilisation === null ? 'not measured' : `${(100 * link.utilisation).toFixed(1)} %`;
  return {
    title: `Link ${a.label} port ${link.aPort} — ${b.label} port ${link.bPort}`,
    summary: `${a.label} port ${link.aPort} — ${b.label} port ${link.bPort} · ${use}`,
    rows: [
      ['one end', `${a.dpid} port ${link.aPort}`],
      ['other end', `${b.dpid} port ${link.bPort}`],
      ['utilisation', use],
    ],
  };
}

/** A switch's or host's utilisation, when it has one: the links' row is always there, theirs only when given. */
function utilisationRow(utilisation) {
  return utilisation === null || utilisation === undefined ? [] : [['utilisation', `${(100 * utilisation).toFixed(1)} %`]];
}

function hostName(host) {
  return host.ips.length > 0 ? `${host.ips[0]} (${host.mac})` : host.mac;
}

function limited(values) {
  if (values.length === 0) {
    return '—';
  }
  const shown = values.slice(0, LIST_LIMIT).join(', ');
  return values.length > LIST_LIMIT ? `${shown} and ${values.length - LIST_LIMIT} more` : shown;
}

/** The plain fields of the object the API gave, apart from those shown already. */
function infoRows(info, shown) {
  if (info === null || typeof info !== 'object') {
    return [];
  }
  return Object.entries(info)
    .filter(([key, value]) => !shown.includes(key) && value !== null && typeof value !== 'object')
    .map(([key, value]) => [key, String(value)]);
}
