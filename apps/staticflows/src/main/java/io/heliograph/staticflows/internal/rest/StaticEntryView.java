package io.heliograph.staticflows.internal.rest;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.Reconciliation;
import io.heliograph.staticflows.StaticFlowService;
import io.heliograph.staticflows.internal.EntryCodec;
import io.heliograph.webui.api.ApiSchema;

/**
 * A stored entry: its kind (flow, group, meter), switch and name; what the controller knows of it on
 * the switch ({@code state} INSTALLED, PENDING, FAILED, UNSUPPORTED or UNVERIFIED, with the switch's
 * error or the reason in {@code detail}); the state of its switch's reconciliation on this instance
 * ({@code reconciliation}: RECONCILING, OK, RETRYING, NOT_POSSIBLE or SLAVE; null when the switch is
 * not connected here); and its definition with the member names a request uses, so a GET's
 * {@code entry} can be sent back as a PUT body.
 */
public record StaticEntryView(@ApiSchema(values = {"flow", "group", "meter"}, required = true) String kind,
        @ApiSchema(required = true) String dpid, @ApiSchema(required = true) String name,
        @ApiSchema(type = EntryStatus.State.class, required = true) String state, String detail,
        @ApiSchema(type = Reconciliation.State.class) String reconciliation, @ApiSchema(required = true) Map<String, Object> entry) {

    /** With the switch's reconciliation as {@code reconciliations} tells it. */
    static StaticEntryView of(EntryStatus status, Function<DatapathId, Optional<Reconciliation>> reconciliations) {
        String reconciliation = reconciliations.apply(status.entry().dpid()).map(r -> r.state().name()).orElse(null);
        return new StaticEntryView(status.entry().kind(), status.entry().dpid().toString(), status.entry().name(),
                status.state().name(), status.detail(), reconciliation, EntryCodec.toJson(status.entry()));
    }

    /** Each entry with its switch's reconciliation, asked once per switch. */
    static List<StaticEntryView> of(List<EntryStatus> statuses, StaticFlowService service) {
        Map<DatapathId, Optional<Reconciliation>> asked = new HashMap<>();
        return statuses.stream().map(s -> of(s, dpid -> asked.computeIfAbsent(dpid, service::reconciliation))).toList();
    }
}
