// The experiment explorer, as the thesis's UI had it: a time slider over the run's samples, the
// topology coloured as it was at the selected instant (links by utilisation, PMs' switches and VMs
// by CPU), the resources at that instant in a sortable, filterable table that a region of the
// topology (shift and drag) also filters, and charts over the run: the busiest link's utilisation and
// each self-reported metric, with a marker at the selected instant (a click on a chart moves there).
// While the experiment runs, new samples are fetched every POLL_MS and a slider at the end follows them.

import { el } from '/ui/dom.js';
import { DataTable } from '/ui/table.js';
import { TopologyGraph } from '/ui/topology/topology-graph.js';
import { UTILISATION_COLOURS, utilisationBand } from '/ui/topology/scene.js';
import { topologyOf, utilisationOf, predictedUtilisation } from './virtue-topology.js';
import { resourceRows, regionFilter } from './virtue-resources.js';
import { TimeChart } from '/ui/chart.js';
import { SnapshotSource, maxLinkUtilisation, nearestIndex, spreadIndices } from './virtue-snapshots.js';
import { bitRate, instant, percent, quantity, NOT_MEASURED } from './virtue-format.js';

const POLL_MS = 5000;
const METRICS_EVERY = 3; // polls
/** Snapshots fetched to draw the busiest link's utilisation over the run (the API serves one instant each). */
const MAX_UTILISATION_SAMPLES = 60;

export class Explorer {
  constructor(api, id) {
    this.api = api;
    this.id = id;
    this.base = `/api/v1/virtue/experiments/${encodeURIComponent(id)}`;
    this.snapshots = new SnapshotSource(api, this.base);
    this.times = [];
    this.index = -1;
    this.snapshot = null;
    this.region = null;
    this.predicted = null;
    this.polls = 0;
    this.build();
  }

  build() {
    this.title = el('h2', {}, `Experiment ${this.id}`);
    this.facts = el('p', { class: 'hint virtue-facts' });
    this.status = el('p', { class: 'virtue-status', role: 'status' });
    this.slider = el('input', { type: 'range', min: 0, max: 0, value: 0, step: 1, class: 'virtue-slider',
      'aria-label': 'Sample time', oninput: () => this.select(Number(this.slider.value)) });
    const step = (d) => () => this.select(Math.max(0, Math.min(this.times.length - 1, this.index + d)));
    this.timeLabel = el('span', { class: 'virtue-time' }, 'no samples yet');
    const scrubber = el('div', { class: 'virtue-scrubber' },
      el('button', { type: 'button', class: 'virtue-previous', onclick: step(-1), 'aria-label': 'Previous sample' }, '◀'),
      this.slider,
      el('button', { type: 'button', class: 'virtue-next', onclick: step(1), 'aria-label': 'Next sample' }, '▶'),
      el('button', { type: 'button', class: 'virtue-latest', onclick: () => this.select(this.times.length - 1) }, 'Latest'),
      this.timeLabel);
    this.summary = el('p', { class: 'virtue-summary' });
    const graphHolder = el('div', { class: 'virtue-graph' });
    this.graph = new TopologyGraph(graphHolder, { onRegion: (items) => this.setRegion(items) });
    this.regionNote = el('span', { class: 'virtue-region-note hint' }, 'Shift and drag on the topology to select a region.');
    this.clearRegion = el('button', { type: 'button', class: 'virtue-clear-region', hidden: true,
      onclick: () => this.graph.selectRegion(null) }, 'Clear region');
    this.table = new DataTable([
      { key: 'kind', title: 'Kind' },
      { key: 'id', title: 'Resource' },
      { key: 'where', title: 'Where' },
      { key: 'use', title: 'Use', numeric: true, text: (r) => percent(r.use), value: (r) => r.use ?? -1,
        cell: (r) => useCell(r.use) },
      { key: 'rate', title: 'Rate', numeric: true, text: (r) => (r.kind === 'PM' ? '' : bitRate(r.rate)),
        value: (r) => r.rate ?? -1 },
      { key: 'capacity', title: 'Capacity', numeric: true, text: (r) => (r.capacity === null ? '' : bitRate(r.capacity)),
        value: (r) => r.capacity ?? -1 },
      { key: 'app', title: 'App' },
    ], { filterLabel: 'Filter resources (id, kind, PM, app)', empty: 'No resources here', rowKey: (r) => r.key });
    this.table.sortBy('use');
    this.table.sortBy('use'); // busiest first
    const side = el('div', { class: 'virtue-resources' },
      el('div', { class: 'virtue-region' }, this.regionNote, ' ', this.clearRegion), this.table.element);
    this.legend = colourLegend();
    this.maxChart = new TimeChart({ title: 'Busiest link’s utilisation', format: (v) => `${Math.round(v * 100)} %`,
      onPick: (t) => this.pick(t) });
    this.metricCharts = el('div', { class: 'virtue-metric-charts' });
    this.charts = [this.maxChart];
    this.element = el('section', { class: 'virtue-explorer', 'data-experiment': this.id },
      this.title, this.facts, this.status, scrubber, this.summary, this.legend,
      el('div', { class: 'virtue-middle' }, graphHolder, side),
      el('h3', {}, 'Over the run'), el('div', { class: 'virtue-charts' }, this.maxChart.element, this.metricCharts));
  }

  /** Loads the experiment, its samples and metrics; resolves once the topology and the latest sample show. */
  async load() {
    let detail;
    try {
      detail = await this.api.get(this.base);
    } catch (e) {
      this.say(`Cannot load experiment ${this.id}: ${e.message}`, true);
      throw e;
    }
    await this.showExperiment(detail);
    await this.refreshTimes(true);
    this.loadMetrics();
    this.loadMaxUtilisation();
    this.schedulePoll();
  }

  async showExperiment(detail) {
    this.detail = detail;
    this.showFacts();
    this.topology = topologyOf(detail.edf);
    await this.graph.setModel(this.topology.model);
    this.showSample();
  }

  showFacts() {
    const detail = this.detail;
    this.element.dataset.state = detail.state;
    this.title.textContent = detail.name && detail.name !== detail.id ? `${detail.name} (${detail.id})` : `Experiment ${detail.id}`;
    this.facts.textContent = `${detail.state} · created ${instant(detail.created)}`
      + (detail.started ? ` · started ${instant(detail.started)}` : '')
      + (detail.stopped ? ` · stopped ${instant(detail.stopped)}` : '')
      + ` · ${sizeOf(detail.edf)} · ${detail.samples ?? 0} samples`;
  }

  /** Reloads the EDF (after an optimisation was executed, its placement is the experiment's). */
  async reload() {
    const detail = await this.api.get(this.base);
    await this.showExperiment(detail);
  }

  /** The experiment's state and times again (started or stopped from the list), keeping its topology. */
  async refreshFacts() {
    try {
      const detail = await this.api.get(this.base);
      this.detail = { ...detail, edf: this.detail?.edf ?? detail.edf };
      this.showFacts();
      await this.refreshTimes();
    } catch (e) {
      this.say(`Cannot load experiment ${this.id}: ${e.message}`, true);
    }
  }

  async refreshTimes(first = false) {
    let times;
    try {
      times = await this.snapshots.times();
    } catch (e) {
      this.say(`Cannot load the sample times: ${e.message}`, true);
      return;
    }
    const atEnd = this.index === this.times.length - 1;
    this.times = times;
    this.slider.max = String(Math.max(0, times.length - 1));
    this.element.dataset.samples = String(times.length);
    if (times.length === 0) {
      this.timeLabel.textContent = 'no samples yet';
      this.showSample();
      return;
    }
    if (first || atEnd) {
      this.select(times.length - 1); // follow the run while the slider is at its end
    }
  }

  /** Selects sample `index`: the slider, the label and the markers at once, the snapshot when it arrives. */
  select(index) {
    if (index < 0 || index >= this.times.length) return;
    this.index = index;
    const { iso, ms } = this.times[index];
    this.slider.value = String(index);
    this.timeLabel.textContent = `${instant(iso)} · sample ${index + 1} of ${this.times.length}`;
    this.element.dataset.selectedTime = iso;
    for (const chart of this.charts) chart.setMarker(ms);
    this.snapshots.request(iso, (snapshot, at) => {
      this.snapshot = snapshot;
      this.element.dataset.shownTime = at;
      this.showSample();
    }, (e) => this.say(`Cannot load the sample at ${instant(iso)}: ${e.message}`, true));
  }

  /** A chart was clicked at `t`: the sample nearest it. */
  pick(t) {
    const i = nearestIndex(this.times.map((x) => x.ms), t);
    if (i >= 0) this.select(i);
  }

  showSample() {
    if (!this.topology) return;
    if (!this.predicted) {
      this.graph.setUtilisation(utilisationOf(this.topology, this.snapshot));
    }
    this.rows = resourceRows(this.detail.edf, this.topology, this.snapshot);
    this.applyRegion();
    const max = maxLinkUtilisation(this.snapshot);
    const hottest = (this.snapshot?.pms ?? []).filter((p) => typeof p.cpu === 'number').sort((a, b) => b.cpu - a.cpu)[0];
    this.summary.textContent = this.snapshot === null ? 'No sample shown.'
      : `Busiest link: ${max === null ? `${NOT_MEASURED} (no link rates in this sample)` : percent(max)}`
        + ` · busiest PM: ${hottest ? `${hottest.id} at ${percent(hottest.cpu)} CPU` : NOT_MEASURED}`;
    this.say('', false);
  }

  setRegion(items) {
    this.region = items;
    this.applyRegion();
    this.showMetrics();
  }

  applyRegion() {
    if (!this.rows) return;
    const inside = regionFilter(this.topology, this.region);
    const rows = this.rows.filter(inside);
    this.table.setRows(rows);
    this.clearRegion.hidden = this.region === null;
    this.regionNote.textContent = this.region === null
      ? 'Shift and drag on the topology to select a region.'
      : `Region: ${rows.length} of ${this.rows.length} resources (${this.region.switches.length} switches,`
        + ` ${this.region.hosts.length} VMs, ${this.region.links.length} cables).`;
    this.element.dataset.regionRows = this.region === null ? '' : String(rows.length);
  }

  async loadMetrics() {
    try {
      const answer = await this.api.get(`${this.base}/metrics`);
      this.metricSeries = answer.series ?? [];
      this.showMetrics();
    } catch (e) {
      this.say(`Cannot load the metrics: ${e.message}`, true);
    }
  }

  /** One chart per metric (CPU first), a line per VM: the VMs of the region when one is selected. */
  showMetrics() {
    if (!this.metricSeries) return;
    const vms = this.region ? new Set(this.region.hosts.map((mac) => this.topology.vmOfMac.get(mac.toLowerCase()))) : null;
    const byMetric = new Map();
    for (const s of this.metricSeries) {
      if (vms && !vms.has(s.vm)) continue;
      if (!byMetric.has(s.metric)) byMetric.set(s.metric, []);
      byMetric.get(s.metric).push({ name: s.vm, points: s.points });
    }
    for (const c of this.charts.slice(1)) c.destroy();
    this.charts = [this.maxChart];
    const names = [...byMetric.keys()].sort((a, b) => (a === 'cpu' ? -1 : b === 'cpu' ? 1 : a.localeCompare(b)));
    const { t0, t1 } = this.domain();
    const charts = names.map((metric) => {
      const chart = new TimeChart({ title: metric === 'cpu' ? 'VM CPU (self-reported)' : metric,
        format: metric === 'cpu' ? (v) => `${Math.round(v * 100)} %` : quantity, onPick: (t) => this.pick(t) });
      chart.element.dataset.metric = metric;
      this.charts.push(chart);
      return chart;
    });
    this.metricCharts.replaceChildren(...(charts.length ? charts.map((c) => c.element)
      : [el('p', { class: 'hint' }, vms ? 'No metrics reported by the VMs in the region.' : 'No metrics reported yet.')]));
    names.forEach((metric, i) => {
      charts[i].setSeries(byMetric.get(metric), { t0, t1, yMax: metric === 'cpu' ? 1 : undefined });
      if (this.index >= 0) charts[i].setMarker(this.times[this.index].ms);
    });
  }

  domain() {
    if (this.times.length === 0) return {};
    return { t0: this.times[0].ms, t1: this.times[this.times.length - 1].ms };
  }

  /** The busiest link over the run, from snapshots spread over it, drawn as they arrive. */
  async loadMaxUtilisation() {
    const times = this.times;
    const points = [];
    const draw = () => {
      const sorted = points.filter((p) => p[1] !== null).sort((a, b) => a[0] - b[0]);
      this.maxChart.setSeries([{ name: 'busiest link', points: sorted, colour: UTILISATION_COLOURS[4] }],
        { ...this.domain(), yMin: 0, yMax: 1 });
      this.maxChart.element.dataset.sampled = String(points.length);
      if (this.index >= 0) this.maxChart.setMarker(this.times[this.index].ms);
    };
    draw();
    const indices = spreadIndices(times.length, MAX_UTILISATION_SAMPLES);
    for (let k = 0; k < indices.length; k += 2) {
      const batch = indices.slice(k, k + 2).map((i) => times[i]);
      try {
        const answers = await Promise.all(batch.map((t) => this.snapshots.at(t.iso)));
        answers.forEach((s, j) => points.push([batch[j].ms, maxLinkUtilisation(s)]));
      } catch (e) {
        this.say(`Cannot load the samples for the busiest link: ${e.message}`, true);
        return;
      }
      if (!this.element.isConnected) return; // the operator left
      if (k % 10 === 0 || k + 2 >= indices.length) draw();
    }
    if (points.length > 0 && points.every((p) => p[1] === null)) {
      this.maxChart.titleElement.textContent = `Busiest link’s utilisation: links ${NOT_MEASURED}`;
    }
  }

  /** Colours the topology with an optimisation's predicted utilisations, or with the sample again (null). */
  showPredicted(prediction) {
    this.predicted = prediction;
    if (prediction) {
      this.graph.setUtilisation(predictedUtilisation(this.topology, this.detail.edf, prediction.links, prediction.pms));
      this.summary.textContent = `Showing the predicted utilisation ${prediction.label} (links and PMs); the slider's sample is not shown.`;
    } else {
      this.showSample();
    }
  }

  schedulePoll() {
    clearTimeout(this.poll);
    this.poll = setTimeout(async () => {
      if (!this.element.isConnected) {
        this.destroy();
        return;
      }
      if (this.detail?.state === 'RUNNING') {
        this.polls++;
        await this.refreshTimes();
        if (this.polls % METRICS_EVERY === 0) {
          await this.loadMetrics();
          this.loadMaxUtilisation();
        }
        try {
          const detail = await this.api.get(this.base);
          this.detail = { ...detail, edf: this.detail.edf };
          this.showFacts();
        } catch (e) { /* shown by the next failing call */ }
      }
      this.schedulePoll();
    }, POLL_MS);
  }

  say(text, error) {
    this.status.textContent = text;
    this.status.classList.toggle('error', error);
  }

  destroy() {
    clearTimeout(this.poll);
    this.graph.destroy();
    for (const c of this.charts) c.destroy();
  }
}

/** An EDF's size as the operator counts it. */
function sizeOf(edf) {
  const pms = edf?.pms ?? [];
  const vms = pms.reduce((n, pm) => n + Object.keys(pm.vms ?? {}).length, 0);
  return `${pms.length} PMs, ${vms} VMs, ${(edf?.switches ?? []).length} switches, ${(edf?.links ?? []).length} links`;
}

/** A utilisation or CPU as a bar in its band's colour and the number. */
function useCell(use) {
  if (use === null) return el('span', { class: 'hint' }, NOT_MEASURED);
  const colour = UTILISATION_COLOURS[utilisationBand(use)];
  return el('span', { class: 'virtue-use' },
    el('span', { class: 'virtue-use-bar', style: `width: ${Math.min(100, use * 100).toFixed(1)}%; background: ${colour}` }),
    el('span', { class: 'virtue-use-text' }, percent(use)));
}

function colourLegend() {
  return el('p', { class: 'virtue-legend hint' }, 'Links: utilisation; PMs (their software switch) and VMs: CPU; ',
    ...['< 30 %', '< 60 %', '< 85 %', '≥ 85 %'].map((label, i) =>
      el('span', { class: 'virtue-legend-key', style: `--band-colour: ${UTILISATION_COLOURS[i + 1]}` }, label)),
    ' · a VM count’s colour is its busiest VM’s; zoom in to see each VM.');
}
