package io.heliograph.virtue.internal.rest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;

import io.heliograph.core.json.Json;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.virtue.engine.EdfFormat;
import io.heliograph.virtue.engine.Energy;
import io.heliograph.virtue.internal.Experiment;
import io.heliograph.virtue.internal.ExperimentService;
import io.heliograph.virtue.internal.Virtue;
import io.heliograph.virtue.store.MetricSeries;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiException;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;

/**
 * Virtue's experiments under {@code /api/v1/virtue}: create one from an EDF (the body, or an uploaded
 * file), list, read, start (its VLAN routes are installed through the static flows app), stop (exactly
 * those entries are removed), delete; the keys its host agents report with and their reports; what
 * was measured (the instants of its rounds, the whole experiment at one instant, the reported metric
 * series). Registered while the Virtue app runs.
 */
@RestController
@ApiDescription("Virtue experiments: EDFs run on the network with static VLAN routes, measured into a database (Virtue app)")
@Component(service = RestResource.class)
public final class ExperimentsResource implements RestResource {

    private static final String BASE = "/api/v1/virtue";

    private final Virtue virtue;

    @Activate
    public ExperimentsResource(@Reference Virtue virtue) {
        this.virtue = virtue;
    }

    private ExperimentService experiments() {
        return virtue.experiments();
    }

    @ApiDescription("The placement algorithms an optimisation can run, and the estimate each minimises")
    @GetMapping(BASE + "/algorithms")
    @OperationId("listVirtueAlgorithms")
    public List<Map<String, Object>> algorithms() {
        List<Map<String, Object>> all = new ArrayList<>();
        for (String name : ExperimentService.algorithmNames()) {
            Energy energy = io.heliograph.virtue.engine.Algorithms.byName(name).map(a -> a.energy()).orElse(Energy.ALL);
            all.add(Map.of("name", name, "energy", energy.name()));
        }
        return all;
    }

    @ApiDescription("The Virtue app's state: its database and recorder, and whether this instance measures and optimises")
    @GetMapping(BASE + "/status")
    @OperationId("getVirtueStatus")
    public Map<String, Object> status() {
        return virtue.status();
    }

    @ApiDescription("Every experiment, oldest first")
    @GetMapping(BASE + "/experiments")
    @OperationId("listVirtueExperiments")
    public List<Map<String, Object>> list() {
        return Calls.answer(() -> {
            Map<String, Map<String, Object>> recorded = virtue.measurements().summaries();
            return experiments().list().stream().map(e -> summary(e, recorded.get(e.id()))).toList();
        });
    }

    @ApiDescription("Creates an experiment from an EDF (the JSON body); name: its id (lower-case letters, digits, dashes)")
    @PostMapping(path = BASE + "/experiments", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    @OperationId("createVirtueExperiment")
    public Map<String, Object> create(@RequestParam(name = "name", required = false) String name,
            @RequestBody(required = false) String edf) {
        return Calls.answer(() -> summary(experiments().create(name, edf), null));
    }

    @ApiDescription("Creates an experiment from an EDF file uploaded as the multipart field file")
    @PostMapping(path = BASE + "/experiments", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    @OperationId("uploadVirtueExperiment")
    public Map<String, Object> upload(@RequestParam(name = "name", required = false) String name,
            @RequestParam(name = "file", required = false) MultipartFile file) throws IOException {
        if (file == null) {
            throw ApiException.badRequest("file", "the EDF is the multipart field 'file', and there is none");
        }
        String edf = new String(file.getBytes(), StandardCharsets.UTF_8);
        return Calls.answer(() -> summary(experiments().create(name, edf), null));
    }

    @ApiDescription("One experiment, its EDF and the VLAN ids of each PM")
    @GetMapping(BASE + "/experiments/{id}")
    @OperationId("getVirtueExperiment")
    public Map<String, Object> one(@PathVariable("id") String id) {
        return Calls.answer(() -> {
            Map<String, Object> one = summary(experiments().get(id), virtue.measurements().summaries().get(id));
            one.put("edf", Json.parse(EdfFormat.write(experiments().edfOf(id))));
            one.put("vlans", experiments().vlans(id));
            return one;
        });
    }

    @ApiDescription("Deletes an experiment, its optimisations and everything recorded of it (a running one is stopped first)")
    @DeleteMapping(BASE + "/experiments/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @OperationId("deleteVirtueExperiment")
    public void delete(@PathVariable("id") String id) {
        Calls.run(() -> experiments().delete(id));
    }

    @ApiDescription("Starts an experiment: installs its routes as static entries and measures it")
    @PostMapping(BASE + "/experiments/{id}/start")
    @OperationId("startVirtueExperiment")
    public Map<String, Object> start(@PathVariable("id") String id) {
        return Calls.answer(() -> summary(experiments().start(id), null));
    }

    @ApiDescription("Stops an experiment: removes exactly the entries it installed and stops measuring it")
    @PostMapping(BASE + "/experiments/{id}/stop")
    @OperationId("stopVirtueExperiment")
    public Map<String, Object> stop(@PathVariable("id") String id) {
        return Calls.answer(() -> summary(experiments().stop(id), null));
    }

    @ApiDescription("The static entries a running experiment has installed")
    @GetMapping(BASE + "/experiments/{id}/entries")
    @OperationId("listVirtueEntries")
    public List<Map<String, Object>> entries(@PathVariable("id") String id) {
        return Calls.answer(() -> experiments().entries(id).stream().map(ExperimentsResource::entry).toList());
    }

    @ApiDescription("The key each VM's host agent reports with (header X-Virtue-Agent-Key)")
    @GetMapping(BASE + "/experiments/{id}/agents")
    @OperationId("listVirtueAgentKeys")
    public Map<String, String> agents(@PathVariable("id") String id) {
        return Calls.answer(() -> experiments().agentKeys(id));
    }

    @ApiDescription("A host agent's report for its VM: {vm, cpu (share of one CPU), metrics {name: number}}")
    @PostMapping(BASE + "/experiments/{id}/reports")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @OperationId("reportVirtueHost")
    public Map<String, Object> report(@PathVariable("id") String id,
            @RequestHeader(name = "X-Virtue-Agent-Key", required = false) String key,
            @RequestBody(required = false) Object body) {
        if (key == null || key.isBlank()) {
            throw new ApiException(HttpStatus.FORBIDDEN, "X-Virtue-Agent-Key",
                    "a report carries its VM's agent key in the header X-Virtue-Agent-Key");
        }
        Calls.run(() -> experiments().report(id, key, body));
        return Map.of("accepted", true);
    }

    @ApiDescription("The instants of an experiment's measurement rounds, oldest first")
    @GetMapping(BASE + "/experiments/{id}/times")
    @OperationId("listVirtueTimes")
    public Map<String, Object> times(@PathVariable("id") String id) {
        return Calls.answer(() -> Map.of("times", virtue.measurements().times(id).stream().map(Instant::toString).toList()));
    }

    @ApiDescription("Every link, VM and PM of an experiment at one instant (at: ISO-8601; absent: its latest round)")
    @GetMapping(BASE + "/experiments/{id}/snapshot")
    @OperationId("getVirtueSnapshot")
    public Map<String, Object> snapshot(@PathVariable("id") String id,
            @RequestParam(name = "at", required = false) String at) {
        Instant instant = at == null ? null : instant("at", at);
        return Calls.answer(() -> virtue.measurements().snapshot(id, instant));
    }

    @ApiDescription("The metric series the host agents reported (cpu among them), of every VM or of one (vm)")
    @GetMapping(BASE + "/experiments/{id}/metrics")
    @OperationId("listVirtueMetrics")
    public Map<String, Object> metrics(@PathVariable("id") String id,
            @RequestParam(name = "vm", required = false) String vm) {
        return Calls.answer(() -> {
            List<Object> series = new ArrayList<>();
            for (MetricSeries s : virtue.measurements().series(id, vm)) {
                List<Object> points = new ArrayList<>();
                for (MetricSeries.Point p : s.points()) {
                    points.add(List.of(p.at().toEpochMilli(), p.value()));
                }
                series.add(Map.of("vm", s.vm(), "metric", s.metric(), "points", points));
            }
            return Map.of("series", series);
        });
    }

    static Instant instant(String field, String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(field, field + " is an ISO-8601 instant (2026-11-29T15:00:00Z), not '"
                    + (text.length() > 60 ? text.substring(0, 60) + "..." : text) + "'");
        }
    }

    private static Map<String, Object> summary(Experiment e, Map<String, Object> recorded) {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("id", e.id());
        summary.put("name", e.name());
        summary.put("state", e.state().name());
        summary.put("created", e.created().toString());
        summary.put("started", e.started() == null ? null : e.started().toString());
        summary.put("stopped", e.stopped() == null ? null : e.stopped().toString());
        summary.put("edfRevision", e.edfRevision());
        summary.put("vms", e.agentKeys().size());
        summary.put("samples", recorded == null ? 0 : recorded.get("rounds"));
        summary.put("measuredAt", recorded == null ? null : recorded.get("last"));
        return summary;
    }

    private static Map<String, Object> entry(FlowEntry flow) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("switch", flow.dpid().toString());
        entry.put("name", flow.name());
        entry.put("entry", flow.toString());
        return entry;
    }
}
