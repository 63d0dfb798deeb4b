package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.Browser;
import io.heliograph.testbed.Cable;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ComponentList;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.EventStreamClient;
import io.heliograph.testbed.EventStreamClient.Event;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.NetworkView;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.Testbed;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Issue 5, live updates: a tool holding a bearer token reads the controller's live events
 * ({@code GET /api/v1/events}, server-sent events) while real OVS bridges connect, get a cable between
 * them, carry a namespace host's traffic and lose their controller: it gets a switch event for each
 * bridge that connects (timed from {@code ovs-vsctl set-controller}), link events for both directions
 * of the cable, a host event for the host, and switch and link events when a bridge leaves. Without
 * credentials the stream is refused (401). When the web bundle stops, open streams end and the apps'
 * publishers wait, unsatisfied, with the apps still running; started again, events flow again. In
 * headless Chromium the topology page and the overview show a newly connected switch without a reload.
 */
@Timeout(300)
// Isolated: event latencies (set-controller to event, median) measured
@Isolated
class LiveEventsIT {

    private static final Duration EVENT = Duration.ofSeconds(30);
    /** LLDP goes out when a port appears and every 5 s after (etc/io.heliograph.topology.cfg). */
    private static final Duration DISCOVERY = Duration.ofSeconds(30);
    private static final List<String> OF13 = List.of("OpenFlow13");
    private static final String LINK_EVENTS = "io.heliograph.topology.internal.rest.LinkEvents";
    private static final String HOST_EVENTS = "io.heliograph.devices.internal.rest.HostEvents";

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static Testbed testbed;
    private static String token;
    /** Switch numbers not yet used: each test adds its own bridges to the one testbed. */
    private static int nextSwitch = 1;

    @BeforeAll
    static void start() {
        artifacts = ArtifactDirectory.forTest("LiveEventsIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        RestClient.Response created = controller.rest().post("/api/v1/auth/tokens", Map.of("name", "LiveEventsIT"));
        assertEquals(201, created.status(), created.toString());
        token = created.json().get("token").asText();
        testbed = Testbed.start("LiveEventsIT");
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("LiveEventsIT");
        cleanup.close("testbed", testbed);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    private static URI api() {
        return URI.create("http://127.0.0.1:" + controller.httpPort());
    }

    private static String target() {
        return testbed.controllerTarget("tcp", controller.openflowPort());
    }

    private static Bridge newBridge() {
        return testbed.addSwitch(nextSwitch++, OF13);
    }

    @Test
    void aToolWithATokenSeesSwitchesLinksAndHostsComeAndGo() {
        RestClient.Response anonymous = controller.anonymousRest().get("/api/v1/events");
        assertEquals(401, anonymous.status(), anonymous.toString());
        assertTrue(anonymous.json().get("message").asText().startsWith("authentication required"), anonymous.toString());

        try (EventStreamClient stream = EventStreamClient.open(api(), token)) {
            // a switch event per bridge that connects; timed from the controller being set on the bridge
            Bridge s1 = newBridge();
            Bridge s2 = newBridge();
            Host h1 = testbed.addHost(1, s1);
            Host h2 = testbed.addHost(2, s2);
            List<Bridge> timed = new ArrayList<>(List.of(s1, s2));
            for (int i = 0; i < 3; i++) {
                timed.add(newBridge());
            }
            List<Long> latenciesMs = new ArrayList<>();
            List<Long> fromLogMs = new ArrayList<>();
            for (Bridge bridge : timed) {
                long set = System.nanoTime();
                bridge.setController(target());
                Event connected = stream.await(bridge.dpid() + " connected", EVENT, "switch",
                        e -> e.path("action").asText().equals("connected") && e.path("dpid").asText().equals(bridge.dpid()));
                latenciesMs.add((connected.arrivedNanos() - set) / 1_000_000);
                fromLogMs.add(connected.arrivedMillis() - loggedConnect(bridge));
                assertEquals(bridge.dpid(), connected.data().at("/switch/dpid").asText(), connected.toString());
                assertEquals("OpenFlow 1.3", connected.data().at("/switch/version").asText(), connected.toString());
            }
            System.out.printf("live events: set-controller -> switch event: %s ms, median %d ms%n", latenciesMs,
                    median(latenciesMs));
            System.out.printf("live events: controller logs the switch connected -> switch event at the client: %s ms,"
                    + " median %d ms (log times have millisecond resolution)%n", fromLogMs, median(fromLogMs));

            // a cable: a link event for each direction, with the ends LLDP found
            long cabled = System.nanoTime();
            Cable cable = testbed.link(s1, s2);
            Event forward = stream.await("link " + s1.dpid() + " -> " + s2.dpid(), DISCOVERY, "link",
                    e -> isLink(e, "added", s1, cable.aPort(), s2, cable.bPort()));
            Event back = stream.await("link " + s2.dpid() + " -> " + s1.dpid(), DISCOVERY, "link",
                    e -> isLink(e, "added", s2, cable.bPort(), s1, cable.aPort()));
            System.out.printf("live events: cable added -> link events after %d and %d ms%n",
                    (forward.arrivedNanos() - cabled) / 1_000_000, (back.arrivedNanos() - cabled) / 1_000_000);

            // a host that sends traffic: its first frame reaches the controller and the device app
            long sent = System.nanoTime();
            h1.ping(h2, 1);
            Event host = stream.await("host " + h1.mac(), EVENT, "host",
                    e -> e.path("action").asText().equals("added") && e.path("mac").asText().equals(h1.mac()));
            JsonNode at = host.data().at("/host/attachmentPoints/0");
            assertEquals(s1.dpid(), at.path("dpid").asText(), host.toString());
            assertEquals(1, at.path("port").asInt(), "h1 is on s1's first port: " + host);
            System.out.printf("live events: ping sent -> host event after %d ms%n", (host.arrivedNanos() - sent) / 1_000_000);

            // a bridge whose controller is removed: it disconnects and its links go
            long removed = System.nanoTime();
            s2.deleteController();
            Event gone = stream.await(s2.dpid() + " disconnected", EVENT, "switch",
                    e -> e.path("action").asText().equals("disconnected") && e.path("dpid").asText().equals(s2.dpid()));
            stream.await("link " + s1.dpid() + " -> " + s2.dpid() + " removed", EVENT, "link",
                    e -> isLink(e, "removed", s1, cable.aPort(), s2, cable.bPort()));
            System.out.printf("live events: del-controller -> switch disconnected event after %d ms%n",
                    (gone.arrivedNanos() - removed) / 1_000_000);
            System.out.printf("live events: %d events and %d comments in the stream%n", stream.events().size(),
                    stream.comments());
        }
    }

    @Test
    void streamsEndWhenTheWebBundleStopsAndTheAppsCarryOnWithoutIt() {
        long webui = controller.bundles(EVENT).find("Heliograph web UI").orElseThrow().id();
        try (EventStreamClient stream = EventStreamClient.open(api(), token)) {
            Poll.until("the stream's opening comment", EVENT, () -> stream.comments() > 0);
            controller.console("stop " + webui);
            Poll.until("the stream to end as the web bundle stops", EVENT, stream::ended);
        }
        try {
            ComponentList stopped = Poll.until("the apps' publishers to wait for the web bundle", EVENT,
                    () -> controller.components(EVENT), c -> List.of(LINK_EVENTS, HOST_EVENTS).stream()
                            .allMatch(name -> c.notRunning().stream().anyMatch(r -> r.name().equals(name))));
            for (String app : List.of("io.heliograph.topology.internal.TopologyComponent",
                    "io.heliograph.devices.internal.DevicesComponent")) {
                assertEquals("ACTIVE", stopped.find(app).orElseThrow().state(), app + " without the web bundle: " + stopped);
            }
            // the network still changes while nobody can listen
            Bridge alone = newBridge();
            alone.setController(target());
            alone.awaitConnected(EVENT);
        } finally {
            controller.console("start " + webui);
            controller.awaitHealthy(Duration.ofSeconds(60));
        }
        // health answers UP once the server runs; the resources of the web bundle's components map just after
        try (EventStreamClient stream = Poll.until("the event stream to be back", EVENT,
                () -> EventStreamClient.open(api(), token), s -> true)) {
            Bridge after = newBridge();
            after.setController(target());
            stream.await(after.dpid() + " connected after the web bundle came back", EVENT, "switch",
                    e -> e.path("dpid").asText().equals(after.dpid()));
        }
        ComponentList running = controller.components(EVENT);
        for (String publisher : List.of(LINK_EVENTS, HOST_EVENTS, "io.heliograph.webui.rest.SwitchEvents")) {
            String state = running.find(publisher).map(ComponentList.Row::state).orElse("missing");
            assertTrue(state.equals("ACTIVE") || state.equals("SATISFIED"), publisher + ": " + state);
        }
    }

    /** The overview's value for {@code key}; failing, the whole page, so that a timeout shows what it showed. */
    private static String overviewRow(Browser browser, String key) {
        String text = (String) browser.script("const row = document.querySelector(\"#page tr[data-key='\" + arguments[0]"
                + " + \"'] td\"); return row ? row.textContent : null", key);
        if (text == null) {
            throw new IllegalStateException("no '" + key + "' on the overview, which shows: "
                    + browser.script("return document.getElementById('page').innerText"));
        }
        return text;
    }

    @Test
    void theTopologyPageAndTheOverviewShowANewSwitchWithoutAReload() {
        Bridge first = newBridge();
        first.setController(target());
        // known to the REST API before the page loads, so the page's count cannot move because of it
        Poll.until(first.dpid() + " in the switch list", EVENT, () -> controller.rest().get("/api/v1/switches").body(),
                body -> body.contains(first.dpid()));
        try (Browser browser = Browser.start(artifacts, 1280, 800)) {
            browser.logIn(controller);
            browser.openPage("#/topology");
            String before = Poll.until("the topology page to show the switches", EVENT,
                    () -> browser.find(".hg-topology-status").getText(), t -> t.matches("\\d+ switches.*"));
            int switches = Integer.parseInt(before.split(" ")[0]);
            browser.script("window.liveEventsMarker = 'set before the switch connects'");
            browser.screenshot("topology-before");

            Bridge next = newBridge();
            long set = System.nanoTime();
            next.setController(target());
            String after = Poll.until("the topology page to show one switch more", EVENT, Duration.ofMillis(20),
                    () -> browser.find(".hg-topology-status").getText(), t -> t.startsWith((switches + 1) + " switches"));
            long shownMs = (System.nanoTime() - set) / 1_000_000;
            assertEquals("set before the switch connects", browser.script("return window.liveEventsMarker"),
                    "the page updated in place: the window was not reloaded");
            browser.screenshot("topology-after");
            System.out.printf("live events: topology page '%s' -> '%s' %d ms after set-controller%n", before, after, shownMs);

            browser.openPage("#/overview");
            String count = Poll.until("the overview's switch count", EVENT, () -> overviewRow(browser, "Switches"),
                    t -> t.matches("\\d+"));
            browser.screenshot("overview-before");
            Bridge another = newBridge();
            another.setController(target());
            Poll.until("the overview to count one switch more", EVENT,
                    () -> overviewRow(browser, "Switches"), t -> t.equals(Integer.toString(Integer.parseInt(count) + 1)));
            assertEquals("set before the switch connects", browser.script("return window.liveEventsMarker"),
                    "the overview updated in place");
            browser.screenshot("overview-after");

            // what else it sees, and the message counters with their rates, as the REST API says: two
            // hosts on the new switch talk, so there are packet-ins and hosts to count
            Host h11 = testbed.addHost(11, another);
            Host h12 = testbed.addHost(12, another);
            h11.ping(h12, 1);
            Poll.until("the overview's links and hosts to agree with the REST API", EVENT, () -> {
                int links = NetworkView.links(controller).size();
                int hosts = NetworkView.hosts(controller).size();
                return overviewRow(browser, "Links").equals(links / 2 + " cables (" + links + " directed links)")
                        && overviewRow(browser, "Hosts").equals(Integer.toString(hosts));
            });
            String packetIns = Poll.until("a packet-in rate on the overview", EVENT,
                    () -> overviewRow(browser, "PACKET_IN messages"), t -> t.matches("\\d+, \\d+/s"));
            System.out.printf("live events: overview PACKET_IN messages '%s'%n", packetIns);
            // the ping's path went in as FLOW_MODs: the overview counts messages sent too (issue 20)
            long asked = System.nanoTime();
            String flowMods = Poll.until("a FLOW_MOD sent count and rate on the overview", EVENT,
                    () -> overviewRow(browser, "FLOW_MOD sent"), t -> t.matches("[1-9]\\d*, \\d+/s"));
            System.out.printf("live events: overview FLOW_MOD sent '%s' (%d ms after the PACKET_IN rate)%n", flowMods,
                    (System.nanoTime() - asked) / 1_000_000);
        }
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    /** When the controller logged that {@code bridge} connected (its log line, local time, milliseconds). */
    private static long loggedConnect(Bridge bridge) {
        Matcher m = Pattern.compile("(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}) \\[[^]]*] INFO SwitchRegistry"
                + " - switch " + Pattern.quote(bridge.dpid()) + " at \\S+ connected").matcher(controller.log());
        String last = null;
        while (m.find()) {
            last = m.group(1);
        }
        assertTrue(last != null, "no log line for " + bridge.dpid() + " connecting");
        return LocalDateTime.parse(last.replace(' ', 'T')).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
    }

    private static boolean isLink(JsonNode e, String action, Bridge src, int srcPort, Bridge dst, int dstPort) {
        return e.path("action").asText().equals(action)
                && e.at("/src/dpid").asText().equals(src.dpid()) && e.at("/src/port").asInt() == srcPort
                && e.at("/dst/dpid").asText().equals(dst.dpid()) && e.at("/dst/port").asInt() == dstPort;
    }
}
