// Finding switches and hosts by what an operator types: part of a dpid (with or without colons), of a
// MAC address, or of an IP address. Exact matches come first (10.0.0.1 before 10.0.0.10), then
// switches, then hosts, each in model order.

const MAX_MATCHES = 1000;

/** The matches for `text` as {kind: 'switch'|'host', index}; none for blank text. */
export function findMatches(model, text) {
  const query = text.trim().toLowerCase();
  if (query === '') {
    return [];
  }
  // hex digits with or without separators match dpids and MACs written either way; an IP address
  // (with dots) does not, so 10.0.0.1 finds that host and not dpid ...:10:00:01
  const bare = query.replace(/[:-]/g, '');
  const hexQuery = /^[0-9a-f]+$/.test(bare) ? bare : null;
  const bareOf = (value) => value.replace(/:/g, '');
  const exact = [];
  const partial = [];
  const add = (isExact, match) => {
    if (isExact) {
      exact.push(match);
    } else if (partial.length < MAX_MATCHES) {
      partial.push(match);
    }
  };
  for (const s of model.switches) {
    if (s.dpid.includes(query) || (hexQuery !== null && bareOf(s.dpid).includes(hexQuery))) {
      add(s.dpid === query || bareOf(s.dpid) === hexQuery, { kind: 'switch', index: s.index });
    }
  }
  for (const h of model.hosts) {
    const ips = h.ips.map((ip) => ip.toLowerCase());
    if (h.mac.includes(query) || (hexQuery !== null && bareOf(h.mac).includes(hexQuery))
        || ips.some((ip) => ip.includes(query))) {
      add(h.mac === query || bareOf(h.mac) === hexQuery || ips.includes(query), { kind: 'host', index: h.index });
    }
  }
  return [...exact, ...partial].slice(0, MAX_MATCHES);
}
