package io.heliograph.webui;

import io.heliograph.core.SwitchService;

/**
 * The answer of {@code GET /api/v1/health}: UP with the number of connected switches once the
 * switch service is there (the OpenFlow layer is running), DOWN with 503 until then. Tests and
 * orchestration tools poll it to learn that the controller is ready.
 */
final class Health {

    record Answer(int status, String json) {
    }

    private Health() {
    }

    static Answer of(SwitchService switches) {
        if (switches == null) {
            return new Answer(503, "{\"status\":\"DOWN\",\"switches\":0}");
        }
        return new Answer(200, "{\"status\":\"UP\",\"switches\":" + switches.getSwitches().size() + "}");
    }
}
