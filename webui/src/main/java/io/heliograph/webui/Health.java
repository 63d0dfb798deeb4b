package io.heliograph.webui;

import io.heliograph.core.SwitchService;

/**
 * The answer of {@code GET /api/v1/health}: UP with the number of connected switches once the
 * switch service is there (the OpenFlow layer is running), DOWN with 503 until then. Tests and
 * orchestration tools poll it to learn that the controller is ready.
 */
public record Health(String status, int switches) {

    static Health of(SwitchService switches) {
        return switches == null ? new Health("DOWN", 0) : new Health("UP", switches.getSwitches().size());
    }

    boolean up() {
        return "UP".equals(status);
    }
}
