package io.heliograph.staticflows.internal.rest;

import java.util.List;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.projectfloodlight.openflow.types.DatapathId;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.staticflows.StaticFlowService;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.Requests;
import io.heliograph.webui.api.RestResource;

/**
 * Where each switch's reconciliation with its static entries stands on this instance, under
 * {@code /api/v1/staticflows/reconciliation}: OK, still trying (RETRYING), or NOT_POSSIBLE because
 * the switch's tables cannot be read, with the reason and when the next attempt is due.
 */
@RestController
@ApiDescription("Whether each switch's static entries could be reconciled with what the switch holds (static flows app)")
@Component(service = RestResource.class)
public final class ReconciliationResource implements RestResource {

    private final StaticFlowService service;

    @Activate
    public ReconciliationResource(@Reference StaticFlowService service) {
        this.service = service;
    }

    @ApiDescription("The reconciliation of every switch this instance writes to: state, reason, attempts, last and next attempt")
    @GetMapping("/api/v1/staticflows/reconciliation")
    @OperationId("listReconciliations")
    public List<ReconciliationView> all() {
        return service.reconciliations().stream().map(ReconciliationView::of).toList();
    }

    @ApiDescription("The reconciliation of one switch (state SLAVE when this instance is its SLAVE); 404 when it is not connected here")
    @GetMapping("/api/v1/staticflows/reconciliation/{dpid}")
    @OperationId("getReconciliation")
    public ReconciliationView one(@PathVariable("dpid") String dpidText) {
        DatapathId dpid = Requests.dpid("dpid", dpidText);
        return service.reconciliation(dpid).map(ReconciliationView::of).orElseThrow(() -> Requests.notFound("dpid",
                "switch " + dpid + " is not connected to this instance, or its static entries are not loaded yet"));
    }
}
