package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Browser;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.SourceBundle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Issue 6 (the cluster's page): an operator in headless Chromium, against a real controller JVM, sees
 * the cluster's instances (this one marked, how many switches each is master of) and every switch's
 * mastership, moves one switch to another instance with its row's "Move to", sees a move made over
 * REST within the page's refresh, rebalances, and sees the page say so when the cluster stops. The
 * cluster is a test bundle registering in-memory cluster services (three instances, four switches, a
 * move confirmed 200 ms after it is asked) ranked above any other: the page and the REST resource are
 * tested here, not the election (the ZooKeeper bundle's system tests do that with real switches).
 */
@Timeout(300)
class ClusterPageIT {

    private static final Duration UI = Duration.ofSeconds(30);
    private static final String S1 = "00:00:00:00:00:00:00:01";
    private static final String S4 = "00:00:00:00:00:00:00:04";
    private static final List<String> SWITCHES = List.of(S1, "00:00:00:00:00:00:00:02", "00:00:00:00:00:00:00:03", S4);

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static RestClient rest;
    private static Browser browser;
    private static long clusterBundle;

    @BeforeAll
    static void start() {
        artifacts = ArtifactDirectory.forTest("ClusterPageIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        rest = controller.rest();
        RestClient.Response installed = rest.upload("/api/v1/bundles", "file", buildFakeCluster());
        assertEquals(201, installed.status(), installed.toString());
        clusterBundle = installed.json().get("id").asLong();
        startFakeCluster();
        browser = Browser.start(artifacts, 1280, 900);
        browser.logIn(controller);
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("ClusterPageIT");
        cleanup.close("browser", browser);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void anOperatorSeesTheClusterMovesASwitchsMastershipAndRebalances() {
        Poll.until("the cluster page in the navigation", UI, () -> browser.find("#nav a[href='#/cluster']"),
                WebElement::isDisplayed).click();
        Poll.until("the three instances on the page", UI, () -> column(".hg-instances", 0),
                List.of("c1this instance", "c2", "c3")::equals);
        assertEquals(List.of("3", "0", "1"), column(".hg-instances", 6), "how many switches each is master of");
        assertEquals(List.of("10.0.0.1:6653", "10.0.0.2:6653", "10.0.0.3:6653"), column(".hg-instances", 1));
        assertEquals(List.of("connected", "connected", "connected"), column(".hg-instances", 5));
        assertTrue(browser.find(".hg-cluster-connection").getText().contains("connected to ZooKeeper at 127.0.0.1:2181"),
                browser.find(".hg-cluster-connection").getText());
        Poll.until("every switch's mastership", UI, () -> column(".hg-masterships", 0), SWITCHES::equals);
        assertEquals(List.of("c1", "c1", "c1", "c3"), masters());
        assertEquals(List.of("c1, c2, c3", "c1, c2, c3", "c1, c2", "c2, c3"), column(".hg-masterships", 3));
        browser.screenshot("cluster-1-instances-and-masterships");

        // the operator moves switch 1 to c3: the row offers the candidates that are not master
        long before = mastership(S1).get("generation").asLong();
        Select target = new Select(row(S1).findElement(By.cssSelector("select.hg-move-target")));
        assertEquals(List.of("c2", "c3"), target.getOptions().stream().map(WebElement::getText).toList());
        target.selectByValue("c3");
        row(S1).findElement(By.cssSelector("button[data-action=move]")).click();
        Poll.until("the row to say c3 is master of switch 1", UI,
                () -> row(S1).findElement(By.cssSelector(".hg-row-outcome")).getText(),
                t -> t.startsWith("c3 is master now"));
        JsonNode moved = mastership(S1);
        assertEquals("c3", moved.get("master").asText(), "the controller moved it");
        assertTrue(moved.get("generation").asLong() > before, "with a new generation: " + moved);
        assertEquals("c3 is master now (generation " + moved.get("generation").asLong() + ").",
                row(S1).findElement(By.cssSelector(".hg-row-outcome")).getText());
        Poll.until("the page to show the move", UI, ClusterPageIT::masters, List.of("c3", "c1", "c1", "c3")::equals);
        Poll.until("the instances' counts to follow", UI, () -> column(".hg-instances", 6), List.of("2", "0", "2")::equals);
        browser.screenshot("cluster-2-moved");

        // a move made elsewhere shows within the page's refresh
        RestClient.Response elsewhere = rest.put("/api/v1/cluster/masterships/" + S4, Map.of("master", "c2"));
        assertEquals(200, elsewhere.status(), elsewhere.toString());
        Poll.until("the page to show switch 4's move made over REST", UI, ClusterPageIT::masters,
                List.of("c3", "c1", "c1", "c2")::equals);

        browser.find("button[data-action=rebalance]").click();
        Poll.until("the page to say the masterships are rebalanced", UI,
                () -> browser.find(".hg-rebalance-note").getText(), t -> t.startsWith("Rebalanced"));
        List<String> rebalanced = new ArrayList<>();
        rest.get("/api/v1/cluster/masterships").json().forEach(m -> rebalanced.add(m.get("master").asText()));
        assertEquals(List.of("c1", "c2", "c1", "c3"), rebalanced, "the test cluster's even spread");
        assertEquals("Rebalanced: 4 switches (c1 2, c2 1, c3 1).", browser.find(".hg-rebalance-note").getText());
        Poll.until("the table to show the rebalanced masters", UI, ClusterPageIT::masters, rebalanced::equals);
        assertEquals(List.of(), row(S1).findElements(By.cssSelector(".hg-row-outcome")),
                "switch 1's row no longer says c3 is its master");
        browser.screenshot("cluster-3-rebalanced");
    }

    @Test
    void whenTheClusterStopsThePageSaysSoAndRecoversWhenItStartsAgain() {
        browser.openPage("#/cluster");
        Poll.until("the instances on the page", UI, () -> column(".hg-instances", 0).size(), n -> n == 3);
        // the ZooKeeper cluster bundle, once the distribution has it, would answer in the test cluster's place
        List<Long> clusters = new ArrayList<>(List.of(clusterBundle));
        rest.get("/api/v1/bundles").json().forEach(b -> {
            if (b.get("symbolicName").asText().equals("io.heliograph.cluster") && b.get("state").asText().equals("ACTIVE")) {
                clusters.add(b.get("id").asLong());
            }
        });
        for (long id : clusters) {
            // the distribution's cluster bundle is a platform bundle: stopped only when forced
            RestClient.Response stopped = rest.post("/api/v1/bundles/" + id + "/stop?force=true", "");
            assertEquals(200, stopped.status(), stopped.toString());
        }
        String said = Poll.until("the page to say the cluster is not running", UI,
                () -> browser.find(".hg-status").getText(), t -> t.contains("the cluster is not running"));
        assertTrue(said.contains("ClusterService") && said.contains("MastershipService"), said);
        assertEquals(List.of("The instances cannot be read now"), column(".hg-instances", 0));
        assertEquals(List.of("The masterships cannot be read now"), column(".hg-masterships", 0),
                "no mastership is shown that may be stale");
        browser.screenshot("cluster-4-not-running");
        for (long id : clusters.subList(1, clusters.size())) {
            RestClient.Response started = rest.post("/api/v1/bundles/" + id + "/start", "");
            assertEquals("ACTIVE", started.json().get("state").asText(), started.toString());
        }
        startFakeCluster();
        Poll.until("the instances back on the page", UI, () -> column(".hg-instances", 0).size(), n -> n == 3);
        Poll.until("the masterships back on the page", UI, () -> column(".hg-masterships", 0), SWITCHES::equals);
    }

    private static void startFakeCluster() {
        RestClient.Response started = rest.post("/api/v1/bundles/" + clusterBundle + "/start", "");
        assertEquals("ACTIVE", started.json().get("state").asText(), started.toString());
        Poll.until("the cluster resource to answer with the test cluster", UI, () -> rest.get("/api/v1/cluster"),
                r -> r.status() == 200 && r.json().get("local").asText().equals("c1"));
    }

    private static JsonNode mastership(String dpid) {
        for (JsonNode m : rest.get("/api/v1/cluster/masterships").json()) {
            if (m.get("dpid").asText().equals(dpid)) {
                return m;
            }
        }
        throw new AssertionError("no mastership of " + dpid);
    }

    private static WebElement row(String dpid) {
        return browser.find(".hg-masterships tr[data-key='" + dpid + "']");
    }

    /** The text of one column of a table on the page, row by row. */
    @SuppressWarnings("unchecked")
    private static List<String> column(String table, int index) {
        return (List<String>) browser.script("return [...document.querySelectorAll(arguments[0] + ' tbody tr')]"
                + ".map(r => r.children[Math.min(arguments[1], r.children.length - 1)].textContent.trim())", table, index);
    }

    @SuppressWarnings("unchecked")
    private static List<String> masters() {
        return (List<String>) browser.script("return [...document.querySelectorAll('.hg-masterships tbody tr')]"
                + ".map(r => { const m = r.querySelector('.hg-master-id'); return m ? m.textContent : 'none'; })");
    }

    /** A cluster of three instances (this one c1) and four switches, in memory; moves confirmed after 200 ms. */
    private static Path buildFakeCluster() {
        return SourceBundle.build(distribution, artifacts.resolve("test-cluster.jar").toAbsolutePath(), Map.of(
                "Bundle-SymbolicName", "io.heliograph.test.cluster",
                "Bundle-Name", "Heliograph test app: in-memory cluster",
                "Bundle-Version", "1.0.0",
                "Bundle-Activator", "test.cluster.Activator",
                "Import-Package", "org.osgi.framework, io.heliograph.core.cluster,"
                        + " org.projectfloodlight.openflow.types"), Map.of(
                "test.cluster.Activator", """
                        package test.cluster;

                        import java.util.Hashtable;
                        import org.osgi.framework.BundleActivator;
                        import org.osgi.framework.BundleContext;
                        import org.osgi.framework.Constants;
                        import io.heliograph.core.cluster.ClusterService;
                        import io.heliograph.core.cluster.MastershipService;

                        public class Activator implements BundleActivator {
                            public void start(BundleContext context) {
                                Hashtable<String, Object> first = new Hashtable<>();
                                first.put(Constants.SERVICE_RANKING, Integer.MAX_VALUE);
                                context.registerService(ClusterService.class, new TestCluster(), first);
                                context.registerService(MastershipService.class, new TestElection(), first);
                            }

                            public void stop(BundleContext context) {
                            }
                        }
                        """,
                "test.cluster.TestCluster", """
                        package test.cluster;

                        import java.time.Instant;
                        import java.util.Map;
                        import java.util.TreeMap;
                        import io.heliograph.core.cluster.ClusterInstance;
                        import io.heliograph.core.cluster.ClusterService;

                        public class TestCluster implements ClusterService {
                            private final Map<String, ClusterInstance> instances = new TreeMap<>();

                            TestCluster() {
                                for (int i = 3; i >= 1; i--) {
                                    instances.put("c" + i, new ClusterInstance("c" + i, "10.0.0." + i + ":6653",
                                            "10.0.0." + i + ":8080", "0.1.0-test", Instant.now().minusSeconds(60 * i)));
                                }
                            }

                            public ClusterInstance getLocalInstance() {
                                return instances.get("c1");
                            }

                            public Map<String, ClusterInstance> getInstances() {
                                return Map.copyOf(instances);
                            }

                            public boolean isConnected() {
                                return true;
                            }

                            public String getConnectString() {
                                return "127.0.0.1:2181";
                            }
                        }
                        """,
                "test.cluster.TestElection", """
                        package test.cluster;

                        import java.util.*;
                        import java.util.concurrent.*;
                        import org.projectfloodlight.openflow.types.DatapathId;
                        import io.heliograph.core.cluster.Mastership;
                        import io.heliograph.core.cluster.MastershipService;

                        public class TestElection implements MastershipService {
                            private final Map<DatapathId, Mastership> masterships = new HashMap<>();
                            private long generation = 4096;

                            TestElection() {
                                put(1, "c1", "c1", "c2", "c3");
                                put(2, "c1", "c1", "c2", "c3");
                                put(3, "c1", "c1", "c2");
                                put(4, "c3", "c2", "c3");
                            }

                            private void put(long dpid, String master, String... candidates) {
                                DatapathId id = DatapathId.of(dpid);
                                masterships.put(id, new Mastership(id, master, ++generation, Set.of(candidates)));
                            }

                            public synchronized Map<DatapathId, Mastership> getMasterships() {
                                return Map.copyOf(masterships);
                            }

                            public synchronized Optional<Mastership> getMastership(DatapathId id) {
                                return Optional.ofNullable(masterships.get(id));
                            }

                            public synchronized CompletableFuture<Mastership> moveMastership(DatapathId id, String to) {
                                Mastership now = masterships.get(id);
                                if (now == null || !now.candidates().contains(to)) {
                                    return CompletableFuture.failedFuture(new IllegalArgumentException("instance " + to
                                            + " is not connected to switch " + id));
                                }
                                // confirmed a moment later, as a switch's role reply would be
                                return CompletableFuture.supplyAsync(() -> become(id, to),
                                        CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS));
                            }

                            /** In datapath id order, each switch to the candidate mastering the fewest so far. */
                            public synchronized CompletableFuture<Map<DatapathId, Mastership>> rebalance() {
                                Map<String, Integer> load = new TreeMap<>();
                                for (DatapathId id : new TreeSet<>(masterships.keySet())) {
                                    String chosen = null;
                                    for (String c : new TreeSet<>(masterships.get(id).candidates())) {
                                        if (chosen == null || load.getOrDefault(c, 0) < load.getOrDefault(chosen, 0)) {
                                            chosen = c;
                                        }
                                    }
                                    load.merge(chosen, 1, Integer::sum);
                                    if (!chosen.equals(masterships.get(id).master())) {
                                        become(id, chosen);
                                    }
                                }
                                return CompletableFuture.completedFuture(getMasterships());
                            }

                            private synchronized Mastership become(DatapathId id, String master) {
                                Mastership moved = new Mastership(id, master, ++generation, masterships.get(id).candidates());
                                masterships.put(id, moved);
                                return moved;
                            }
                        }
                        """));
    }
}
