package io.heliograph.virtue.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.heliograph.virtue.engine.Edf;
import io.heliograph.virtue.store.HostReport;
import io.heliograph.virtue.store.MetricSeries;
import io.heliograph.virtue.store.Round;

/**
 * What was recorded of an experiment, as the explorer shows it: the instants of its rounds, the state
 * of every link, VM and PM at one instant (the round at or before it, each VM's latest report at or
 * before it) and the metric series its host agents reported. Figures not measured are null.
 */
public final class MeasurementQueries {

    private final ExperimentService experiments;
    private final VirtueDatabaseAccess database;

    MeasurementQueries(ExperimentService experiments, VirtueDatabaseAccess database) {
        this.experiments = experiments;
        this.database = database;
    }

    public List<Instant> times(String id) {
        experiments.get(id);
        return database.times(id);
    }

    /** The experiment at {@code at} (null: its latest round). */
    public Map<String, Object> snapshot(String id, Instant at) {
        experiments.get(id);
        Edf edf = experiments.edfOf(id);
        Optional<Round> round = at == null ? database.latestRound(id) : database.roundAtOrBefore(id, at);
        Map<String, HostReport> reports = database.reportsAtOrBefore(id, at != null ? at
                : round.map(Round::at).orElse(null));
        Map<String, Object> snapshot = new LinkedHashMap<>();
        snapshot.put("at", round.map(r -> r.at().toString()).orElse(null));
        Map<String, Double> rates = round.map(Round::links).orElse(Map.of());
        List<Object> links = new ArrayList<>();
        for (Edf.Link link : edf.links()) {
            Map<String, Object> l = new LinkedHashMap<>();
            Double bits = rates.get(link.id());
            double capacity = edf.linkBitsPerSecond(link);
            l.put("id", link.id());
            l.put("source", link.sourceId());
            l.put("sourcePort", link.sourcePort());
            l.put("destination", link.destinationId());
            l.put("destinationPort", link.destinationPort());
            l.put("bitsPerSecond", bits);
            l.put("capacity", capacity);
            l.put("utilisation", bits == null || !(capacity > 0) ? null : bits / capacity);
            links.add(l);
        }
        snapshot.put("links", links);
        List<Object> traffic = new ArrayList<>();
        round.map(Round::traffic).orElse(Map.of()).forEach((pair, bits) -> traffic.add(Map.of("source", pair.source(),
                "destination", pair.destination(), "bitsPerSecond", bits)));
        snapshot.put("traffic", traffic);
        Map<String, Round.Nic> nics = round.map(Round::nics).orElse(Map.of());
        Map<String, String> switchOfVm = new HashMap<>();
        for (Edf.Link link : edf.links()) {
            switchOfVm.putIfAbsent(link.sourceId(), link.destinationId());
        }
        List<Object> vms = new ArrayList<>();
        List<Object> pms = new ArrayList<>();
        for (Edf.Pm pm : edf.pms()) {
            Double pmCpu = null;
            String pmSwitch = null;
            for (String vm : pm.vms().keySet()) {
                HostReport report = reports.get(vm);
                Round.Nic nic = nics.get(vm);
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("id", vm);
                v.put("pm", pm.id());
                v.put("mac", pm.vms().get(vm).parameters().get("MAC"));
                v.put("cpu", report == null ? null : report.cpu());
                v.put("reported", report == null ? null : report.at().toString());
                v.put("nicSent", nic == null ? null : nic.sentBitsPerSecond());
                v.put("nicReceived", nic == null ? null : nic.receivedBitsPerSecond());
                v.put("metrics", report == null ? Map.of() : report.metrics());
                vms.add(v);
                if (report != null && report.cpu() != null) {
                    pmCpu = (pmCpu == null ? 0 : pmCpu) + report.cpu();
                }
                if (pmSwitch == null) {
                    pmSwitch = switchOfVm.get(vm);
                }
            }
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("id", pm.id());
            p.put("switch", pmSwitch);
            p.put("cpu", pmCpu == null ? null : pmCpu / cpuCount(edf, pm));
            pms.add(p);
        }
        snapshot.put("vms", vms);
        snapshot.put("pms", pms);
        return snapshot;
    }

    /** Per experiment id, how many rounds are recorded and the first and last instants. */
    public Map<String, Map<String, Object>> summaries() {
        Map<String, Map<String, Object>> all = new LinkedHashMap<>();
        database.summaries().forEach((id, summary) -> {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("rounds", summary.rounds());
            s.put("first", summary.first() == null ? null : summary.first().toString());
            s.put("last", summary.last() == null ? null : summary.last().toString());
            all.put(id, s);
        });
        return all;
    }

    /** The metric series of every VM (or one), cpu included as the metric "cpu". */
    public List<MetricSeries> series(String id, String vm) {
        experiments.get(id);
        return database.series(id, vm);
    }

    private static double cpuCount(Edf edf, Edf.Pm pm) {
        String count = pm.parameters().getOrDefault(Edf.CPU_COUNT, edf.parameters().get(Edf.CPU_COUNT));
        double n = count == null ? 1 : Double.parseDouble(count);
        return n > 0 ? n : 1;
    }
}
