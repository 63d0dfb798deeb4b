package io.heliograph.virtue.internal.rest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.virtue.internal.Experiment;
import io.heliograph.virtue.internal.ExperimentService;
import io.heliograph.virtue.internal.Optimisation;
import io.heliograph.virtue.internal.PlacementReport;
import io.heliograph.core.json.Json;
import io.heliograph.virtue.engine.EdfFormat;
import io.heliograph.virtue.internal.Virtue;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiException;
import io.heliograph.webui.api.ApiSchema;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;

/**
 * Optimisations of a Virtue experiment under {@code /api/v1/virtue/experiments/{id}/optimisations}:
 * queue one (any engine algorithm, on the averages of what was recorded or on measurements the request
 * brings), follow its progress, read its result (the migration plan and the utilisations predicted
 * before and after) and its optimised EDF, and record that an orchestration tool executed it.
 * Optimisations run on one instance of the cluster, off the I/O threads, one at a time per experiment.
 */
@RestController
@ApiDescription("Optimisations of Virtue experiments: migration plans from the placement engine (Virtue app)")
@Component(service = RestResource.class)
public final class OptimisationsResource implements RestResource {

    private static final String BASE = "/api/v1/virtue/experiments/{id}/optimisations";

    private final Virtue virtue;

    @Activate
    public OptimisationsResource(@Reference Virtue virtue) {
        this.virtue = virtue;
    }

    private ExperimentService experiments() {
        return virtue.experiments();
    }

    @ApiDescription("Queues an optimisation: {algorithm, seed, timeLimitSeconds (the Model's), measurements (optional)}")
    @PostMapping(BASE)
    @ResponseStatus(HttpStatus.ACCEPTED)
    @OperationId("queueVirtueOptimisation")
    public Map<String, Object> queue(@PathVariable("id") String id,
            @ApiSchema(type = Bodies.OptimisationRequest.class) @RequestBody(required = false) Object body) {
        return Calls.answer(() -> view(experiments().optimise(id, body), null));
    }

    @ApiDescription("The experiment's optimisations, oldest first, with their progress")
    @GetMapping(BASE)
    @OperationId("listVirtueOptimisations")
    public List<Map<String, Object>> list(@PathVariable("id") String id) {
        return Calls.answer(() -> experiments().optimisations(id).stream().map(o -> view(o, null)).toList());
    }

    @ApiDescription("One optimisation: its progress and, once DONE, its plan and predicted utilisations")
    @GetMapping(BASE + "/{optimisation}")
    @OperationId("getVirtueOptimisation")
    public Map<String, Object> one(@PathVariable("id") String id, @PathVariable("optimisation") String optimisation) {
        return Calls.answer(() -> {
            Optimisation o = experiments().optimisation(id, optimisation);
            return view(o, experiments().result(o).map(PlacementReport::toJson).orElse(null));
        });
    }

    @ApiDescription("The optimised EDF of a DONE optimisation")
    @GetMapping(BASE + "/{optimisation}/edf")
    @OperationId("getVirtueOptimisedEdf")
    public Object edf(@PathVariable("id") String id, @PathVariable("optimisation") String optimisation) {
        return Calls.answer(() -> experiments().result(id, optimisation).filter(r -> r.edf() != null)
                .map(r -> Json.parse(EdfFormat.write(r.edf()))).orElseThrow(
                () -> ApiException.conflict("optimisation", "optimisation " + optimisation + " has no EDF: it is "
                        + experiments().optimisation(id, optimisation).state() + " or found no feasible placement")));
    }

    @ApiDescription("Records that the optimisation's plan was executed: its EDF becomes the experiment's (routes follow)")
    @PostMapping(BASE + "/{optimisation}/executed")
    @OperationId("executedVirtueOptimisation")
    public Map<String, Object> executed(@PathVariable("id") String id,
            @PathVariable("optimisation") String optimisation) {
        return Calls.answer(() -> {
            Experiment experiment = experiments().executed(id, optimisation);
            return Map.of("experiment", experiment.id(), "edfRevision", experiment.edfRevision(),
                    "optimisation", optimisation);
        });
    }

    private static Map<String, Object> view(Optimisation o, Map<String, Object> result) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", o.id());
        view.put("experiment", o.experiment());
        view.put("algorithm", o.algorithm());
        view.put("seed", o.seed());
        view.put("timeLimitSeconds", o.timeLimitSeconds());
        view.put("state", o.state().name());
        view.put("progress", o.progress());
        view.put("instance", o.instance());
        view.put("attempt", o.attempt());
        view.put("requested", o.requested().toString());
        view.put("started", o.started() == null ? null : o.started().toString());
        view.put("finished", o.finished() == null ? null : o.finished().toString());
        view.put("executed", o.executed() == null ? null : o.executed().toString());
        view.put("error", o.error());
        view.put("result", result);
        return view;
    }
}
