package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Browser;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.FatTree;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.NetworkView;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.Testbed;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

/**
 * Issue 5, item 3 (the topology part): an operator logs in to the web UI of a controller running a real
 * OVS k=4 fat tree, opens the topology page from the navigation (a page the web bundle contributes the
 * way apps do, as a UiPage service) and sees the tree's 20 switches, 32 cables and, after a ping-all,
 * its 16 hosts; clicking a core switch shows its dpid and inferred role. The page leaves the navigation
 * while the topology app is stopped.
 */
@Timeout(300)
class TopologyPageIT {

    private static final int K = 4;

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static Testbed testbed;
    private static FatTree tree;
    private static Browser browser;

    @BeforeAll
    static void start() throws Exception {
        artifacts = ArtifactDirectory.forTest("TopologyPageIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        testbed = Testbed.start("TopologyPageIT");
        tree = testbed.fatTree(K, List.of("OpenFlow13"));
        testbed.ovs().setController(tree.switches(), testbed.controllerTarget("tcp", controller.openflowPort()));
        controller.awaitSwitches(tree.switches().size(), Duration.ofSeconds(60));
        Poll.until("the controller to know the fat tree's links", Duration.ofSeconds(60),
                () -> NetworkView.links(controller), tree.directedLinks()::equals);
        pingAll();
        Poll.until("the controller to know all " + tree.hosts().size() + " hosts", Duration.ofSeconds(30),
                () -> NetworkView.hosts(controller).size(), n -> n == tree.hosts().size());
        browser = Browser.start(artifacts, 1280, 900);
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("TopologyPageIT");
        cleanup.close("browser", browser);
        cleanup.close("testbed", testbed);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void loggedInOperatorSeesTheFatTreeOnTheTopologyPage() {
        browser.logIn(controller);

        WebElement topologyLink = Poll.until("the topology page in the navigation", Duration.ofSeconds(30),
                () -> browser.find("#nav a[href='#/topology']"), WebElement::isDisplayed);
        assertEquals("Topology", topologyLink.getText());
        topologyLink.click();

        String status = Poll.until("the topology page to show the fat tree", Duration.ofSeconds(60),
                () -> browser.find(".hg-topology-status").getText(),
                text -> text.startsWith("20 switches, 32 links, 16 hosts"));
        Map<String, Object> drawn = Poll.until("a full frame of the fat tree", Duration.ofSeconds(30),
                () -> canvasData(), d -> "true".equals(d.get("linksComplete")));
        assertEquals("20", drawn.get("switchesDrawn"), "switches drawn: " + drawn);
        assertEquals("32", drawn.get("linksDrawn"), "cables drawn: " + drawn);
        assertEquals(16, Integer.parseInt((String) drawn.get("hostsInBadges")) + Integer.parseInt((String) drawn.get("hostsDrawn")),
                "hosts drawn or counted in badges: " + drawn);
        browser.screenshot("topology-page");

        String core = tree.cores().get(0).dpid();
        clickSwitch(core);
        String details = browser.find(".hg-topology-details").getText();
        assertTrue(details.contains("Switch " + core), "details after clicking " + core + ": " + details);
        assertTrue(details.contains("role (inferred)\ncore"), "the core switch's inferred role: " + details);
        assertTrue(details.contains("links\n" + K + "\n"), "a core switch has a cable to each of the k pods: " + details);
        browser.screenshot("topology-page-core-switch");
        System.out.printf("topology page: '%s'; %s clicked: %s%n", status, core, details.replace('\n', ' '));

        // the page lives with the topology app: stopped, it leaves the navigation; started, it is back
        long app = controller.bundles(Duration.ofSeconds(30)).find("app: topology").orElseThrow().id();
        controller.console("stop " + app);
        Poll.until("the topology page to leave the navigation", Duration.ofSeconds(30), this::navigation,
                pages -> !pages.contains("#/topology") && pages.contains("#/overview"));
        controller.console("start " + app);
        Poll.until("the topology page to come back to the navigation", Duration.ofSeconds(30), this::navigation,
                pages -> pages.contains("#/topology"));
    }

    @SuppressWarnings("unchecked")
    private List<String> navigation() {
        return (List<String>) browser.script(
                "return [...document.querySelectorAll('#nav a')].map(a => a.getAttribute('href'))");
    }

    private void clickSwitch(String dpid) {
        // the whole graph, and the whole canvas in the window: the page may start below the fold
        browser.script("document.querySelector('.hg-topology').topologyGraph.fit();"
                + "document.querySelector('.hg-topology-canvas').scrollIntoView({block: 'center'})");
        @SuppressWarnings("unchecked")
        Map<String, Object> p = (Map<String, Object>) browser.script(
                "return document.querySelector('.hg-topology').topologyGraph.screenPositionOfSwitch(arguments[0])", dpid);
        WebElement canvas = browser.find(".hg-topology-canvas");
        // Selenium's offsets are from the element's centre
        int dx = (int) Math.round(((Number) p.get("x")).doubleValue() - canvas.getSize().getWidth() / 2.0);
        int dy = (int) Math.round(((Number) p.get("y")).doubleValue() - canvas.getSize().getHeight() / 2.0);
        new Actions(browser.driver()).moveToElement(canvas, dx, dy).click().perform();
        Poll.until("details of " + dpid, Duration.ofSeconds(10),
                () -> browser.find(".hg-topology-details").getText(), t -> t.contains(dpid));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> canvasData() {
        return (Map<String, Object>) browser.script(
                "return Object.assign({}, document.querySelector('.hg-topology-canvas').dataset)");
    }

    /** Every host pings every other once, all hosts at a time: the device app then knows each one. */
    private static void pingAll() throws Exception {
        List<String> lost = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(tree.hosts().size());
        try {
            List<Future<?>> running = new ArrayList<>();
            for (Host from : tree.hosts()) {
                running.add(pool.submit(() -> {
                    for (Host to : tree.hosts()) {
                        if (to != from && !from.ping(to, 1).allAnswered()) {
                            lost.add(from.name() + " -> " + to.name());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.printf("ping-all: %d of %d pairs unanswered %s%n", lost.size(),
                tree.hosts().size() * (tree.hosts().size() - 1), lost);
    }
}
