package io.heliograph.vdn.internal;

import io.heliograph.core.json.Json;
import io.heliograph.solver.SolverService;
import io.heliograph.solver.internal.Standalone;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Map;

/** A small CDN, its agents' reports, and the app's runtime alone on a real solver. */
final class VdnFixture {

    /** S1 feeds R1 (cheap) and R2 (dear); both feed E1 and E2; G1 hangs off both edges, G2 off E2. */
    static final String TOPOLOGY = """
            {"nodes": [{"id": "S1", "tier": "source"},
                       {"id": "R1", "tier": "reflector", "y": 0}, {"id": "R2", "tier": "reflector", "y": 10},
                       {"id": "E1", "tier": "edge", "y": 0}, {"id": "E2", "tier": "edge", "y": 10},
                       {"id": "G1", "tier": "client-group", "y": 0}, {"id": "G2", "tier": "client-group", "y": 10}],
             "links": [{"from": "S1", "to": "R1", "capacityKbps": 10000, "cost": 10},
                       {"from": "S1", "to": "R2", "capacityKbps": 10000, "cost": 30},
                       {"from": "R1", "to": "E1", "capacityKbps": 10000, "cost": 10},
                       {"from": "R1", "to": "E2", "capacityKbps": 10000, "cost": 10},
                       {"from": "R2", "to": "E1", "capacityKbps": 10000, "cost": 10},
                       {"from": "R2", "to": "E2", "capacityKbps": 10000, "cost": 10},
                       {"from": "E1", "to": "G1", "capacityKbps": 50000, "cost": 0},
                       {"from": "E2", "to": "G1", "capacityKbps": 50000, "cost": 2},
                       {"from": "E2", "to": "G2", "capacityKbps": 50000, "cost": 0}]}""";

    static final String E1_REPORT = """
            {"cluster": "E1", "links": {"R1->E1": 9000, "R2->E1": 10000, "E1->G1": 50000},
             "viewers": [{"group": "G1", "video": "news", "bitrateKbps": 800, "clients": 30}]}""";

    static final String E2_REPORT = """
            {"cluster": "E2", "links": {"R1->E2": 10000, "R2->E2": 10000},
             "viewers": [{"group": "G2", "video": "news", "bitrateKbps": 800, "clients": 4},
                         {"group": "G2", "video": "final", "bitrateKbps": 4500, "clients": 9}]}""";

    private static SolverService solver;

    private VdnFixture() {
    }

    static synchronized SolverService solver() {
        if (solver == null) {
            try {
                solver = Standalone.fromClassPath();
            } catch (IOException e) {
                throw new UncheckedIOException("OR-Tools' natives cannot be loaded", e);
            }
        }
        return solver;
    }

    /** Settings whose period is long: a test asks for each decision with decideNow(). */
    static VdnSettings settings() {
        return new VdnSettings(3600, 10, 1, 1, 20, 7200, 3, 600);
    }

    static VdnRuntime started(String instance, Clock clock) {
        VdnRuntime runtime = new VdnRuntime(settings(), instance, clock);
        runtime.solver.bind(solver());
        runtime.start();
        return runtime;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> json(String text) {
        return (Map<String, Object>) Json.parse(text);
    }
}
