package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.Command;
import io.heliograph.testbed.CommandResult;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.Testbed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19, "what must be shown" 3: an app built outside this repository, as its developer builds it.
 * {@code heliograph new-app} makes a project in an empty directory; {@code mvn package} builds it
 * offline against the distribution's SDK ({@code sdk/repository}) and the local Maven repository the
 * controller's build filled, running the project's own unit tests; {@code heliograph deploy-app
 * --controller} installs it through the REST bundle upload into a running controller with an Open
 * vSwitch bridge connected. The app's listener counts the packet-ins of the hosts' first packets,
 * its resource answers under {@code /api/v1/hello-app} and is in the OpenAPI document, its page is
 * listed and its listener is in the PACKET_IN pipeline. Then the source is changed, rebuilt and
 * deployed again (an update: the changed answer is served), and removed (resource, page and
 * listener gone), all in the same controller process.
 *
 * <p>Cost: about a minute (two offline Maven builds of a small project, one controller).
 */
@Timeout(600)
class NewAppIT {

    private static final String NAME = "hello-app";
    private static final String PACKAGE = "org.example.hello";
    private static final String PATH = "/api/v1/" + NAME;
    private static final Duration BUILD = Duration.ofMinutes(5);
    private static final Duration DEPLOY = Duration.ofSeconds(60);
    private static final Duration SETTLE = Duration.ofSeconds(30);

    @TempDir
    Path scratch;

    private final Cleanup cleanup = new Cleanup("NewAppIT");
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() {
        for (int i = opened.size() - 1; i >= 0; i--) {
            AutoCloseable c = opened.get(i);
            cleanup.close(c.toString(), c);
        }
        cleanup.finish();
    }

    @Test
    void anAppMadeByNewAppIsBuiltOutsideTheTreeDeployedUpdatedAndRemovedWithoutARestart() throws IOException {
        Path artifacts = ArtifactDirectory.forTest("NewAppIT");
        Path project = scratch.resolve("projects").resolve(NAME);
        Files.createDirectories(project);   // empty: new-app fills it

        CommandResult created = heliograph("new-app", NAME, "--package", PACKAGE, "--dir", project.toString());
        Path sources = project.resolve("src/main/java/org/example/hello");
        for (String file : List.of("HelloAppCounter.java", "HelloAppConfig.java", "rest/HelloAppResource.java",
                "rest/HelloAppPage.java")) {
            assertTrue(Files.isRegularFile(sources.resolve(file)), file + " created\n" + created.stdout());
        }
        assertTrue(Files.isRegularFile(project.resolve("src/test/java/org/example/hello/HelloAppCounterTest.java")));
        Path jar = build(project, artifacts.resolve("mvn-package-1.log"));

        ControllerDistribution distribution = open(ControllerDistribution.copyOfBuilt(scratch));
        ControllerProcess controller = open(ControllerProcess.start(distribution, artifacts.resolve("controller.log")));
        controller.awaitHealthy(Duration.ofSeconds(60));
        Testbed testbed = open(Testbed.start("NewAppIT"));
        Bridge s = testbed.addSwitch(1, List.of("OpenFlow13"));
        Host h1 = testbed.addHost(1, s);
        Host h2 = testbed.addHost(2, s);
        s.setController(testbed.controllerTarget("tcp", controller.openflowPort()));
        controller.awaitSwitches(1, SETTLE);
        RestClient rest = controller.rest();
        ControllerProcess.Credentials credentials = controller.credentials(SETTLE);
        long pid = controller.pid();

        CommandResult installed = deployApp(controller, credentials, jar.toString());
        assertTrue(installed.stdout().contains("installed " + PACKAGE + " as bundle"), installed.stdout());
        Poll.until("GET " + PATH + " to answer", DEPLOY, () -> rest.get(PATH), r -> r.status() == 200);
        // An app the pipeline order does not name runs after the named ones, and forwarding ends the
        // pipeline for what it forwards: the operator puts the app first (as the app's README says).
        List<String> order = new ArrayList<>(packetInListeners(rest));
        order.remove(NAME);
        order.add(0, NAME);
        RestClient.Response reordered = rest.put("/api/v1/pipelines/PACKET_IN", order);
        assertEquals(200, reordered.status(), reordered.toString());
        // the hosts' first packets (ARP, then the first pings) reach the controller as packet-ins
        h1.awaitReachable(h2, SETTLE);
        JsonNode counted = Poll.until("the app's listener to count packet-ins from " + s.dpid(), SETTLE,
                () -> rest.get(PATH).json(), j -> j.at("/switches/" + s.dpid()).asLong() > 0);
        assertEquals(NAME, counted.get("app").asText(), counted.toString());
        assertTrue(counted.get("total").asLong() >= counted.at("/switches/" + s.dpid()).asLong(), counted.toString());
        assertTrue(rest.get("/api/v1/openapi.json").json().path("paths").has(PATH), "the OpenAPI document lists "
                + PATH);
        assertTrue(pageIds(rest).contains(NAME), "the UI lists the app's page: " + pageIds(rest));
        assertTrue(packetInListeners(rest).contains(NAME), "the PACKET_IN pipeline runs the app: "
                + packetInListeners(rest));

        // a changed answer, rebuilt and deployed again: an update in place
        Path resource = sources.resolve("rest/HelloAppResource.java");
        String source = Files.readString(resource);
        String changed = source.replace("new Counts(HelloAppCounter.NAME,", "new Counts(\"hello-app, updated\",");
        assertNotEquals(source, changed, "the resource's answer was found in its source");
        Files.writeString(resource, changed);
        // and its unit test, which asserts the answer (a developer changes both)
        Path test = project.resolve("src/test/java/org/example/hello/rest/HelloAppResourceTest.java");
        String testSource = Files.readString(test);
        String changedTest = testSource.replace("assertEquals(\"hello-app\", counts.app());",
                "assertEquals(\"hello-app, updated\", counts.app());");
        assertNotEquals(testSource, changedTest, "the unit test's expected answer was found");
        Files.writeString(test, changedTest);
        Path rebuilt = build(project, artifacts.resolve("mvn-package-2.log"));
        CommandResult updated = deployApp(controller, credentials, rebuilt.toString());
        assertTrue(updated.stdout().contains("updated " + PACKAGE), updated.stdout());
        Poll.until("the updated app's answer", DEPLOY, () -> rest.get(PATH),
                r -> r.status() == 200 && r.json().path("app").asText().equals("hello-app, updated"));
        assertTrue(packetInListeners(rest).contains(NAME), "the updated app is in the pipeline again");

        CommandResult removed = deployApp(controller, credentials, rebuilt.toString(), "--remove");
        assertTrue(removed.stdout().contains("uninstalled " + PACKAGE), removed.stdout());
        Poll.until("GET " + PATH + " to be gone", DEPLOY, () -> rest.get(PATH), r -> r.status() == 404);
        assertFalse(rest.get("/api/v1/openapi.json").json().path("paths").has(PATH), "the OpenAPI document no longer"
                + " lists " + PATH);
        assertFalse(pageIds(rest).contains(NAME), "the page left the UI");
        assertFalse(packetInListeners(rest).contains(NAME), "the pipeline runs without the app");
        assertTrue(controller.isAlive() && controller.pid() == pid, "the same controller process throughout");
    }

    private <T extends AutoCloseable> T open(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    /** deploy/heliograph of the source tree, whose distribution (and SDK) the build assembled. */
    private static CommandResult heliograph(String... args) {
        Path script = ControllerDistribution.built().getParent().getParent().resolve("heliograph");
        List<String> argv = new ArrayList<>(List.of(script.toString()));
        argv.addAll(List.of(args));
        return Command.of(argv).timeout(DEPLOY).check();
    }

    private static CommandResult deployApp(ControllerProcess controller, ControllerProcess.Credentials credentials,
            String... args) {
        List<String> argv = new ArrayList<>(List.of("deploy-app"));
        argv.addAll(List.of(args));
        argv.addAll(List.of("--controller", "http://127.0.0.1:" + controller.httpPort(), "--user",
                credentials.user() + ":" + credentials.password()));
        return heliograph(argv.toArray(String[]::new));
    }

    /**
     * {@code mvn package} in the app's project, offline: the SDK is a file: repository, which
     * {@code aether.offline.protocols} lets an offline build read; everything else comes from the
     * local repository the controller's build filled. The project's own unit tests run.
     */
    private static Path build(Path project, Path log) throws IOException {
        CommandResult mvn = Command.of("mvn", "-B", "--no-transfer-progress", "-o", "-Daether.offline.protocols=file",
                "-f", project.resolve("pom.xml").toString(), "package").timeout(BUILD).run();
        Files.writeString(log, mvn.stdout() + mvn.stderr());
        assertEquals(0, mvn.exitCode(), "mvn package of the new app (log: " + log + ")\n" + tail(mvn.stdout()));
        assertTrue(mvn.stdout().contains("Tests run: 3, Failures: 0, Errors: 0"), "the app's unit tests ran: "
                + tail(mvn.stdout()));
        Path jar = project.resolve("target/" + NAME + "-1.0.0-SNAPSHOT.jar");
        assertTrue(Files.isRegularFile(jar), jar + " built");
        return jar;
    }

    private static String tail(String text) {
        return text.length() <= 4000 ? text : text.substring(text.length() - 4000);
    }

    private static List<String> pageIds(RestClient rest) {
        return StreamSupport.stream(rest.get("/api/v1/ui/pages").json().spliterator(), false)
                .map(p -> p.get("id").asText()).toList();
    }

    private static List<String> packetInListeners(RestClient rest) {
        return StreamSupport.stream(rest.get("/api/v1/pipelines/PACKET_IN").json().path("listeners").spliterator(),
                false).map(JsonNode::asText).toList();
    }
}
