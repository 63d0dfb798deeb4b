package io.heliograph.webui;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.core.StateBounds;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;

/**
 * {@code GET /api/v1/limits}: every bounded table of the apps running now (hosts, MAC addresses,
 * installed paths, held packets, ...), with its bound, its fill and what it evicted or refused, so an
 * operator sees what a flood did. An app's tables appear while it runs and leave when it stops.
 */
@RestController
@ApiDescription("Bounded state: the tables that grow with what switches send, their bounds and what they turned away")
final class LimitsResource {

    static final String PATH = "/api/v1/limits";

    record Limit(@ApiDescription("the table, <app>.<table>, e.g. devices.hostsPerPort") String table,
                 @ApiDescription("the setting that sets the bound, <pid>/<key>") String setting,
                 @ApiDescription("the bound: entries, or entries per second for a rate") long limit,
                 @ApiDescription("entries held now; for a per-switch or per-port bound, the fullest one's") long size,
                 @ApiDescription("entries removed to make room for newer ones since the app started") long evicted,
                 @ApiDescription("new entries (or messages) turned away at the bound since the app started")
                 long refused,
                 @ApiDescription("what the table holds and what happens at the bound") String description) {

        static Limit of(StateBounds.Bound bound) {
            return new Limit(bound.table(), bound.setting(), bound.limit(), bound.size(), bound.evicted(),
                    bound.refused(), bound.description());
        }
    }

    private final ControllerView controller;

    LimitsResource(ControllerView controller) {
        this.controller = controller;
    }

    @GetMapping(PATH)
    @ApiDescription("Every bounded table of the apps running now, by name: bound, entries, evicted and refused")
    @OperationId("listLimits")
    public List<Limit> limits() {
        return controller.bounds().stream().map(Limit::of).toList();
    }
}
