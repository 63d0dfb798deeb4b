// Every cluster (tier, its agent's last report and viewers, the RIB version it was given, its FIB's mode),
// and for the one selected its RIB (what the centre decided) beside its FIB (what the agent uses: central
// entries and its own local ones), each entry with its origin, version and evidence.

import { el } from '/ui/dom.js';
import { DataTable } from '/ui/table.js';

const ago = (ms) => (ms === null || ms === undefined ? '-' : `${Math.max(0, Math.round((Date.now() - ms) / 1000))} s ago`);

export class ClusterPanel {
  constructor(api) {
    this.api = api;
    this.selected = null;
    this.table = new DataTable([
      { key: 'id', title: 'Cluster', cell: (c) => el('a', { href: '#', class: 'vdn-select', 'data-cluster': c.id,
        onclick: (e) => { e.preventDefault(); this.select(c.id); } }, c.id) },
      { key: 'tier', title: 'Tier' },
      { key: 'reportedAtMillis', title: 'Report', text: (c) => ago(c.reportedAtMillis) },
      { key: 'viewers', title: 'Viewers', numeric: true },
      { key: 'ribVersion', title: 'RIB version', numeric: true, text: (c) => c.ribVersion ?? '-' },
      { key: 'ribEntries', title: 'RIB entries', numeric: true },
      { key: 'fibMode', title: 'FIB mode', text: (c) => c.fibMode ?? '-' },
      { key: 'fibPublishedAtMillis', title: 'FIB', text: (c) => ago(c.fibPublishedAtMillis) },
    ], { filterLabel: 'Filter clusters', empty: 'No clusters', rowKey: (c) => c.id });
    this.rib = new DataTable(entryColumns(), { filterLabel: 'Filter the RIB', empty: 'No RIB entries' });
    this.fib = new DataTable(entryColumns(), { filterLabel: 'Filter the FIB', empty: 'No FIB entries' });
    this.title = el('h3', {}, 'Select a cluster');
    this.fibFacts = el('p', { class: 'hint vdn-fib-facts' });
    this.element = el('section', { class: 'vdn-clusters' }, el('h2', {}, 'Clusters'), this.table.element, this.title,
      el('div', { class: 'vdn-tables' },
        el('div', { class: 'vdn-rib' }, el('h4', {}, 'RIB (central)'), this.rib.element),
        el('div', { class: 'vdn-fib' }, el('h4', {}, 'FIB (in use)'), this.fibFacts, this.fib.element)));
  }

  async show(clusters) {
    this.table.setRows(clusters);
    if (this.selected) {
      await this.load();
    }
  }

  async select(id) {
    this.selected = id;
    await this.load();
  }

  async load() {
    const id = this.selected;
    this.title.textContent = `Cluster ${id}`;
    const [rib, fib] = await Promise.all([this.get(`/api/v1/vdn/clusters/${encodeURIComponent(id)}/rib`),
      this.get(`/api/v1/vdn/clusters/${encodeURIComponent(id)}/fib`)]);
    this.rib.setRows(rib ? rib.decisions : []);
    this.fib.setRows(fib ? fib.table.decisions : []);
    this.fibFacts.textContent = fib
      ? `${fib.mode} mode, version ${fib.table.version}, shadow versions ${(fib.shadows ?? []).join(', ') || 'none'}`
      : 'Its agent has published no FIB.';
  }

  async get(path) {
    try {
      return await this.api.get(path);
    } catch (e) {
      if (e.status === 404) return null;
      throw e;
    }
  }
}

function entryColumns() {
  return [
    { key: 'key', title: 'Channel' },
    { key: 'value', title: 'Next hop' },
    { key: 'origin', title: 'Origin' },
    { key: 'version', title: 'Version', numeric: true },
    { key: 'evidence', title: 'Evidence', text: (d) => Object.entries(d.evidence ?? {}).map(([k, v]) => `${k} ${v}`).join(', ') },
  ];
}
