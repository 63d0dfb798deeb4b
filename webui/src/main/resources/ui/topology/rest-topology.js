// The topology as the controller's REST API has it, in the graph's model shape (see topology-model.js):
// switches from /api/v1/switches, links from the topology app (/api/v1/topology/links), hosts from the
// device app (/api/v1/hosts, page by page), and, for networks small enough to ask every switch, link
// utilisation from the statistics app's port rates over the ports' current speeds.
// An app that is not running leaves its part empty and says so in `notes`.

const HOSTS_PER_REQUEST = 10_000;
const MAX_SWITCHES_FOR_RATES = 200;

/** Resolves to {model, notes}; `api.get(path)` resolves to the JSON of a GET or rejects with {status, message}. */
export async function fetchTopology(api) {
  const notes = [];
  const optional = (what, promise) => promise.catch((e) => {
    notes.push(`${what}: ${e.message}${e.status ? ` (HTTP ${e.status})` : ''}`);
    return null;
  });
  const [switches, links, hosts] = await Promise.all([
    api.get('/api/v1/switches'),
    optional('links', api.get('/api/v1/topology/links')),
    optional('hosts', allHosts(api)),
  ]);
  const model = { switches, links: links ?? [], hosts: hosts ?? [] };
  if (model.links.length > 0 && switches.length <= MAX_SWITCHES_FOR_RATES) {
    const usage = await optional('utilisation', portUsage(api, switches.map((s) => s.dpid)));
    if (usage) {
      for (const link of model.links) {
        link.utilisation = usage.get(`${link.src.dpid}/${link.src.port}`) ?? null;
      }
    }
  }
  return { model, notes };
}

async function allHosts(api) {
  const hosts = [];
  for (;;) {
    const page = await api.get(`/api/v1/hosts?offset=${hosts.length}&limit=${HOSTS_PER_REQUEST}`);
    hosts.push(...page.hosts);
    if (page.hosts.length === 0 || hosts.length >= page.total) {
      return hosts;
    }
  }
}

/** dpid/port -> the busier direction's share of the port's current speed, for ports that report both. */
async function portUsage(api, dpids) {
  const usage = new Map();
  await Promise.all(dpids.map(async (dpid) => {
    const path = encodeURIComponent(dpid);
    const [ports, rates] = await Promise.all([
      api.get(`/api/v1/switches/${path}/ports`),
      api.get(`/api/v1/stats/switches/${path}/ports`),
    ]);
    const speed = new Map(ports.map((p) => [p.number, p.currentSpeedKbps]));
    for (const rate of rates) {
      const kbps = speed.get(rate.port);
      if (kbps > 0) {
        const busier = Math.max(rate.txBitsPerSecond, rate.rxBitsPerSecond);
        usage.set(`${dpid}/${rate.port}`, Math.min(1, busier / (kbps * 1000)));
      }
    }
  }));
  return usage;
}
