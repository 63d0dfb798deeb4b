package io.heliograph.circuit.internal.rest;

import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.circuit.internal.Circuit;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiSchema;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;

/**
 * The circuit app under {@code /api/v1/circuit}: the schedule (current and next week), the scheduler
 * and estimator in use and their choice, the demand, the circuit groups, replica placement advice, and
 * the hosts' ADU reports. Registered while the circuit app runs. A bad body or parameter is a 400
 * naming it, and changes nothing.
 */
@RestController
@ApiDescription("Circuit scheduling for reconfigurable datacenters: schedule, scheduler, demand, circuit groups, "
        + "replica placement, ADU reports (circuit app)")
@Component(service = RestResource.class)
public final class CircuitResource implements RestResource {

    static final String BASE = "/api/v1/circuit";

    private final Circuit circuit;

    @Activate
    public CircuitResource(@Reference Circuit circuit) {
        this.circuit = circuit;
    }

    @ApiDescription("The current and next week: days (circuit up time, the matching as sourceOf per output port) and "
            + "nights, week number and start, scheduler, estimator, demand, circuit and leftover bytes per rack pair")
    @GetMapping(BASE + "/schedule")
    @OperationId("getCircuitSchedule")
    public Map<String, Object> schedule() {
        return Calls.answer(circuit::schedule);
    }

    @ApiDescription("The scheduler and estimator in use, the scheduling loop's last error, the network and the "
            + "executor's status")
    @GetMapping(BASE + "/scheduler")
    @OperationId("getCircuitScheduler")
    public Map<String, Object> scheduler() {
        return Calls.answer(circuit::scheduler);
    }

    @ApiDescription("Chooses the scheduler (solstice, round-robin, fixed with fixedWeek or the strobe) and the "
            + "estimator (voq, adu) for every instance, from the next computed week")
    @PutMapping(BASE + "/scheduler")
    @OperationId("putCircuitScheduler")
    public Map<String, Object> choose(
            @ApiSchema(type = Bodies.SchedulerChoice.class) @RequestBody(required = false) String body) {
        return Calls.answer(() -> circuit.choose(body));
    }

    @ApiDescription("The demand (bytes per week, source rack by destination rack) the latest week was computed from, "
            + "and each estimator's estimate now")
    @GetMapping(BASE + "/demand")
    @OperationId("getCircuitDemand")
    public Map<String, Object> demand() {
        return Calls.answer(circuit::demand);
    }

    @ApiDescription("The circuit groups: each rack's hosts (rack r is circuit switch port r)")
    @GetMapping(BASE + "/groups")
    @OperationId("getCircuitGroups")
    public Map<String, Object> groups() {
        return Calls.answer(circuit::groupsJson);
    }

    @ApiDescription("reHDFS-style placement advice: the rack for the remote replicas of a writer in writerRack")
    @GetMapping(BASE + "/placement")
    @OperationId("getCircuitPlacement")
    public Map<String, Object> placement(@RequestParam(name = "writerRack", required = false) String writerRack) {
        return Calls.answer(() -> circuit.placement(writerRack));
    }

    @ApiDescription("A batch of ADU reports from the hosts' shim (at most 10,000): applied all or none; a report for "
            + "a host in no circuit group or with an absurd size refuses the batch, naming it")
    @PostMapping(BASE + "/adus")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @OperationId("reportCircuitAdus")
    public Map<String, Object> adus(
            @ApiSchema(type = Bodies.AduReport[].class) @RequestBody(required = false) String body) {
        return Calls.answer(() -> circuit.reportAdus(body));
    }
}
