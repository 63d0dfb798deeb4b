package io.heliograph.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Bridge#setController} with several targets and {@link Bridge#controllerRoles} against real
 * Open vSwitch and a real controller: the roles are those of the bridge's own controllers only, by
 * target, with no role for a target nobody answers. The controller is started with
 * {@code --instance-id}, which its REST API reports without making an instance-id file.
 */
@Timeout(180)
class BridgeControllerRolesIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration CONNECT = Duration.ofSeconds(30);

    @Test
    void rolesAreReportedByTargetForThisBridgesControllersOnly() {
        Path artifacts = ArtifactDirectory.forTest("BridgeControllerRolesIT");
        try (ControllerDistribution distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
             ControllerProcess controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"),
                     "--instance-id", "roles-it.1");
             Testbed testbed = Testbed.start("BridgeControllerRolesIT")) {
            controller.awaitHealthy(STARTUP);
            assertEquals("roles-it.1", controller.rest().get("/api/v1/controller").json().get("instanceId").asText(),
                    "the --instance-id given");
            assertFalse(Files.exists(controller.dataDir().resolve("instance-id")), "no id file for a named instance");

            Bridge s1 = testbed.addSwitch(1, List.of("OpenFlow13"));
            Bridge s2 = testbed.addSwitch(2, List.of("OpenFlow13"));
            String live = testbed.controllerTarget("tcp", controller.openflowPort());
            String silent = testbed.controllerTarget("tcp", ControllerProcess.freePort());
            String other = testbed.controllerTarget("tcp", ControllerProcess.freePort());
            s1.setController(live, silent);
            s2.setController(other);

            Map<String, String> roles = Poll.until("s1's connected controller to have a role", CONNECT,
                    s1::controllerRoles, r -> !r.getOrDefault(live, "").isEmpty());
            assertEquals(Set.of(live, silent), roles.keySet(), "s1's two controllers, not s2's");
            // "other" is OVS's EQUAL, which a controller has until it asks for more; "master" once elected
            assertTrue(Set.of("other", "master").contains(roles.get(live)), roles.toString());
            assertEquals("", roles.get(silent), "no role where nothing answers");
            assertEquals(Set.of(other), s2.controllerRoles().keySet());

            s1.deleteController();
            assertEquals(Map.of(), s1.controllerRoles());
        }
    }
}
