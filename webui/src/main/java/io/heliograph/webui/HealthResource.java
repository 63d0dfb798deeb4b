package io.heliograph.webui;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.core.SwitchService;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;

/** {@code GET /api/v1/health}, the one resource that needs no authentication. */
@RestController
final class HealthResource {

    static final String PATH = "/api/v1/health";

    private final Supplier<SwitchService> switches;
    private final BooleanSupplier serverReady;

    /** DOWN until {@code serverReady} (the HTTP server is all set up) and the switch service is there. */
    HealthResource(Supplier<SwitchService> switches, BooleanSupplier serverReady) {
        this.switches = switches;
        this.serverReady = serverReady;
    }

    @GetMapping(PATH)
    @ApiDescription("Whether the controller is UP (200) or DOWN (503, the same body); needs no credentials")
    @OperationId("getHealth")
    public ResponseEntity<Health> health() {
        Health health = Health.of(serverReady.getAsBoolean() ? switches.get() : null);
        return ResponseEntity.status(health.up() ? 200 : 503).cacheControl(CacheControl.noStore()).body(health);
    }
}
