package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Browser;
import io.heliograph.testbed.BundleJar;
import io.heliograph.testbed.BundleList;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.SourceBundle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Issue 5, item 3 (bundles and pipelines): an operator in headless Chromium, against a real controller
 * JVM, reorders the PACKET_IN pipeline on the pipelines page by dragging a listener (HTML5 drag and
 * drop, driven by the mouse) and with the keyboard through the move buttons, saves, and the controller
 * runs the new order (REST and the console's {@code pipelines}); Revert drops an edit; an order naming
 * a listener whose app stopped meanwhile is refused with the API's message at that listener. On the
 * bundles page the operator stops and starts the learning switch (REST and the console's {@code lb}
 * agree), sees the platform bundles marked (Guava, the core: the API refuses to stop one unless forced)
 * and is made to tick "I understand the controller may stop working" before stopping the core or the
 * web bundle, sees the API's refusals, installs an
 * app by uploading its jar, starts it, updates it with a new version and uninstalls it. No switches
 * are needed: the apps' listeners join the pipelines when they start.
 */
@Timeout(400)
class BundlesAndPipelinesPageIT {

    private static final Duration UI = Duration.ofSeconds(30);
    private static final Duration CONSOLE = Duration.ofSeconds(30);
    private static final String PACKET_IN = "PACKET_IN";
    private static final List<String> SHIPPED_ORDER = List.of("topology", "devices", "forwarding", "learningswitch");
    private static final String LEARNING_SWITCH = "io.heliograph.learningswitch";
    private static final String AUDITOR = "io.heliograph.test.auditor";
    private static final String AUDITOR_NAME = "Heliograph test app: packet auditor";
    private static final Pattern PACKET_IN_LINE = Pattern.compile("PACKET_IN: ([^\\n]*)\\n");

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static RestClient rest;
    private static Browser browser;
    private static Path auditorJar;
    private static Path auditorUpdateJar;

    @BeforeAll
    static void start() throws IOException {
        artifacts = ArtifactDirectory.forTest("BundlesAndPipelinesPageIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        rest = controller.rest();
        Poll.until("the apps' listeners in the PACKET_IN pipeline", Duration.ofSeconds(60),
                () -> listeners(PACKET_IN), SHIPPED_ORDER::equals);
        auditorJar = buildAuditor();
        auditorUpdateJar = artifacts.resolve("auditor-1.0.1.jar").toAbsolutePath();
        BundleJar.rebuildWithVersion(auditorJar, auditorUpdateJar, "1.0.1");
        browser = Browser.start(artifacts, 1280, 900);
        browser.logIn(controller);
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("BundlesAndPipelinesPageIT");
        cleanup.close("browser", browser);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void anOperatorReordersAPipelineByDraggingAndWithTheKeyboardAndAStaleOrderIsRefused() {
        WebElement link = Poll.until("the pipelines page in the navigation", UI,
                () -> browser.find("#nav a[href='#/pipelines']"), WebElement::isDisplayed);
        link.click();
        Poll.until("the PACKET_IN pipeline on the page", UI, () -> shownOrder(PACKET_IN), SHIPPED_ORDER::equals);
        assertEquals("Runs now: topology → devices → forwarding → learningswitch", card(PACKET_IN, ".hg-pipeline-effect"));
        browser.screenshot("pipelines-1-shipped-order");

        // the mouse drags learningswitch onto the upper half of devices: it lands before it
        dragBefore(PACKET_IN, "learningswitch", "devices");
        List<String> dragged = List.of("topology", "learningswitch", "devices", "forwarding");
        Poll.until("learningswitch dragged before devices", UI, () -> shownOrder(PACKET_IN), dragged::equals);
        // the keyboard: Enter on forwarding's move-up button, twice (the focus moves with the listener)
        listener(PACKET_IN, "forwarding").findElement(By.cssSelector("button.hg-move-up")).sendKeys(Keys.ENTER);
        assertEquals(List.of("topology", "learningswitch", "forwarding", "devices"), shownOrder(PACKET_IN));
        assertEquals("Move forwarding up", browser.driver().switchTo().activeElement().getAttribute("aria-label"),
                "the focus stays on the moved listener's button");
        browser.driver().switchTo().activeElement().sendKeys(Keys.ENTER);
        List<String> edited = List.of("topology", "forwarding", "learningswitch", "devices");
        assertEquals(edited, shownOrder(PACKET_IN));
        assertEquals(SHIPPED_ORDER, listeners(PACKET_IN), "nothing changes before Save");
        browser.screenshot("pipelines-2-edited");

        browser.find("section[data-type=PACKET_IN] .hg-save").click();
        Poll.until("the page to say the order is saved", UI, () -> card(PACKET_IN, ".hg-pipeline-status"),
                s -> s.startsWith("Saved"));
        assertEquals(edited, listeners(PACKET_IN), "the controller runs the saved order");
        assertEquals(edited, names(rest.get("/api/v1/pipelines/" + PACKET_IN).json().get("order")),
                "and keeps it as the configured order");
        assertEquals(String.join(" -> ", edited), consolePipeline(), "the console shows the same order");
        assertEquals("Runs now: " + String.join(" → ", edited), card(PACKET_IN, ".hg-pipeline-effect"));
        browser.screenshot("pipelines-3-saved");

        // Revert drops an edit without asking the controller to change anything
        listener(PACKET_IN, "devices").findElement(By.cssSelector("button.hg-move-up")).click();
        assertEquals(List.of("topology", "forwarding", "devices", "learningswitch"), shownOrder(PACKET_IN));
        browser.find("section[data-type=PACKET_IN] .hg-revert").click();
        Poll.until("the saved order back on the page", UI, () -> shownOrder(PACKET_IN), edited::equals);
        assertEquals(edited, listeners(PACKET_IN));

        // an order naming a listener whose app stopped after the page showed it is refused, and says why
        long auditor = installedOverRest(auditorJar);
        assertEquals("ACTIVE", rest.post("/api/v1/bundles/" + auditor + "/start", "").json().get("state").asText());
        List<String> withAuditor = new ArrayList<>(edited);
        withAuditor.add("auditor");
        Poll.until("the auditor's listener in the pipeline", UI, () -> listeners(PACKET_IN), withAuditor::equals);
        browser.openPage("#/pipelines/" + PACKET_IN);
        assertEquals(withAuditor, shownOrder(PACKET_IN), "a listener the order does not name runs last");
        listener(PACKET_IN, "auditor").findElement(By.cssSelector("button.hg-move-up")).click();
        assertEquals("RESOLVED", rest.post("/api/v1/bundles/" + auditor + "/stop", "").json().get("state").asText());
        assertEquals(edited, listeners(PACKET_IN), "the stopped app's listener left the pipeline");
        browser.find("section[data-type=PACKET_IN] .hg-save").click();
        String refusal = Poll.until("the refusal on the page", UI, () -> card(PACKET_IN, ".hg-pipeline-error"),
                s -> !s.isEmpty());
        assertTrue(refusal.startsWith("The controller refused this order: 'auditor' is not a listener of the "
                + "PACKET_IN pipeline"), refusal);
        WebElement refused = listener(PACKET_IN, "auditor");
        assertTrue(refused.getAttribute("class").contains("hg-refused"), "the refused listener is marked");
        assertTrue(refused.getText().contains("is not a listener of the PACKET_IN pipeline"),
                "the message is at the listener it names: " + refused.getText());
        browser.screenshot("pipelines-4-refused");
        assertEquals(edited, listeners(PACKET_IN), "a refused order changes nothing");
        assertEquals(edited, names(rest.get("/api/v1/pipelines/" + PACKET_IN).json().get("order")));

        browser.find("section[data-type=PACKET_IN] .hg-revert").click();
        Poll.until("the page to show what runs now", UI, () -> shownOrder(PACKET_IN), edited::equals);
        assertEquals("", card(PACKET_IN, ".hg-pipeline-error"));
        assertEquals(200, rest.delete("/api/v1/bundles/" + auditor).status());
        assertFalse(controller.log().contains(" ERROR "), "no error in the log");
    }

    @Test
    void anOperatorStopsStartsInstallsUpdatesAndUninstallsBundles() throws IOException {
        WebElement link = Poll.until("the bundles page in the navigation", UI,
                () -> browser.find("#nav a[href='#/bundles']"), WebElement::isDisplayed);
        link.click();
        long learningSwitch = bundleId(LEARNING_SWITCH).orElseThrow();
        Poll.until("the learning switch listed as ACTIVE", UI, () -> shownState(learningSwitch), "ACTIVE"::equals);
        browser.screenshot("bundles-1-list");

        // an app stops and starts without a question
        clickInRow(learningSwitch, "stop");
        Poll.until("the page to show the learning switch RESOLVED", UI, () -> shownState(learningSwitch),
                "RESOLVED"::equals);
        assertEquals("RESOLVED", restState(learningSwitch));
        assertEquals("Resolved", consoleRow("learning switch").orElseThrow().state());
        assertFalse(listeners(PACKET_IN).contains("learningswitch"), "a stopped app's listener leaves the pipeline");
        assertTrue(status().endsWith("is RESOLVED."), status());
        browser.screenshot("bundles-2-learning-switch-stopped");
        clickInRow(learningSwitch, "start");
        Poll.until("the page to show the learning switch ACTIVE", UI, () -> shownState(learningSwitch),
                "ACTIVE"::equals);
        assertEquals("ACTIVE", restState(learningSwitch));
        assertEquals("Active", consoleRow("learning switch").orElseThrow().state());
        Poll.until("the learning switch's listener back in the pipeline", UI, () -> listeners(PACKET_IN),
                l -> l.contains("learningswitch"));

        // platform bundles (from the distribution's bundles/) are marked, apps (hot/) are not, and the API
        // refuses to stop one unless forced
        long guava = bundleId("com.google.guava").orElseThrow();
        long core = bundleId("io.heliograph.core").orElseThrow();
        Poll.until("the platform mark on Guava's and the core's rows", UI,
                () -> platformMarked(guava) && platformMarked(core), Boolean::booleanValue);
        assertFalse(platformMarked(learningSwitch), "an app carries no platform mark");
        RestClient.Response unforced = rest.post("/api/v1/bundles/" + guava + "/stop", "");
        assertEquals(409, unforced.status(), unforced.toString());
        assertEquals("force", unforced.json().get("field").asText(), unforced.toString());
        assertEquals("ACTIVE", restState(guava));

        // stopping the core is a forced confirmation, saying what it takes down; cancelled, nothing happens
        clickInRow(core, "stop");
        WebElement dialog = Poll.until("the confirmation before stopping the core", UI,
                () -> browser.find("dialog.hg-confirm[open]"), WebElement::isDisplayed);
        assertTrue(dialog.getText().contains("is the controller's core"), dialog.getText());
        assertTrue(dialog.getText().contains("I understand the controller may stop working"), dialog.getText());
        assertFalse(dialog.findElement(By.cssSelector(".hg-confirm-ok")).isEnabled(),
                "Stop is disabled until the operator ticks the acknowledgement");
        browser.screenshot("bundles-3-core-stop-warning");
        dialog.findElement(By.cssSelector(".hg-confirm-cancel")).click();
        Poll.until("the confirmation to close", UI, () -> browser.driver().findElements(By.cssSelector("dialog.hg-confirm")).isEmpty());
        assertEquals("ACTIVE", restState(core), "cancelled: the core still runs");
        assertTrue(status().endsWith("nothing done."), status());

        // the web bundle warns too; confirmed, the API refuses and the page shows its reason
        long webui = bundleId("io.heliograph.webui").orElseThrow();
        clickInRow(webui, "stop");
        dialog = Poll.until("the confirmation before stopping the web bundle", UI,
                () -> browser.find("dialog.hg-confirm[open]"), WebElement::isDisplayed);
        assertTrue(dialog.getText().contains("serves this web UI and the REST API"), dialog.getText());
        dialog.findElement(By.cssSelector(".hg-confirm-acknowledge")).click();
        dialog.findElement(By.cssSelector(".hg-confirm-ok")).click();
        String refused = Poll.until("the API's refusal on the page", UI,
                () -> browser.find(".hg-bundles-error").getText(), s -> !s.isEmpty());
        assertTrue(refused.startsWith("Cannot stop bundle " + webui + " (io.heliograph.webui): bundle " + webui
                + " (io.heliograph.webui) serves this API; it cannot be stopped over REST"), refused);
        assertEquals("ACTIVE", restState(webui));
        Map<?, ?> inRow = Poll.until("the outcome in the web bundle's row", UI, () -> rowOutcome(webui),
                Objects::nonNull);
        assertEquals(refused, inRow.get("text"), "the refusal is in the bundle's row too");
        assertEquals(Boolean.TRUE, inRow.get("inSight"), "the refusal is in sight where the operator clicked");
        browser.screenshot("bundles-4-web-bundle-refused");

        // a file that is no jar is refused, the reason next to the file field
        Path notes = artifacts.resolve("notes.jar").toAbsolutePath();
        Files.writeString(notes, "these are notes, not a bundle\n");
        install(notes);
        String notAJar = Poll.until("the upload's refusal next to the file field", UI,
                () -> browser.find(".hg-install-error").getText(), s -> !s.isEmpty());
        assertTrue(notAJar.startsWith("Cannot install notes.jar: not a jar"), notAJar);
        browser.screenshot("bundles-5-not-a-jar");

        // install by upload, with "and start it" (checked by default) unchecked: listed, installed, not started
        WebElement startIt = browser.find("#hg-install-start");
        assertTrue(startIt.isSelected(), "an upload starts the bundle unless the operator says not to");
        startIt.click();
        install(auditorJar);
        long auditor = Poll.until("the uploaded bundle in the controller", UI, () -> bundleId(AUDITOR),
                Optional::isPresent).orElseThrow();
        Poll.until("the uploaded bundle listed as INSTALLED", UI, () -> shownState(auditor), "INSTALLED"::equals);
        assertEquals("", browser.find(".hg-install-error").getText());
        assertTrue(status().startsWith("Installed bundle " + auditor + " (" + AUDITOR + ") 1.0.0"), status());
        assertEquals("Installed", consoleRow(AUDITOR_NAME).orElseThrow().state());
        browser.screenshot("bundles-6-installed");
        clickInRow(auditor, "start");
        Poll.until("the uploaded bundle ACTIVE", UI, () -> shownState(auditor), "ACTIVE"::equals);
        assertEquals("ACTIVE", restState(auditor));
        assertTrue(listeners(PACKET_IN).contains("auditor"), "the uploaded app's listener runs");

        // update from a new jar, through the row's file chooser
        Poll.until("the new jar given to the row's file chooser", UI, () -> {
            row(auditor).findElement(By.cssSelector("input.hg-update-file")).sendKeys(auditorUpdateJar.toString());
            return true;
        }, Boolean::booleanValue);
        Poll.until("the page to show version 1.0.1", UI, () -> row(auditor).findElement(By.cssSelector("td:nth-child(4)")).getText(),
                "1.0.1"::equals);
        assertEquals("ACTIVE", shownState(auditor), "the page shows the state the update settled in");
        assertTrue(status().endsWith("1.0.1 is ACTIVE."), status());
        JsonNode updated = rest.get("/api/v1/bundles/" + auditor).json();
        assertEquals("1.0.1", updated.get("version").asText(), updated.toString());
        assertEquals("ACTIVE", updated.get("state").asText(), "an update restarts a started bundle: " + updated);
        assertEquals("1.0.1", consoleRow(AUDITOR_NAME).orElseThrow().version());
        browser.screenshot("bundles-7-updated");

        // uninstall asks first
        clickInRow(auditor, "uninstall");
        dialog = Poll.until("the confirmation before uninstalling", UI,
                () -> browser.find("dialog.hg-confirm[open]"), WebElement::isDisplayed);
        assertTrue(dialog.getText().contains("upload its jar again"), dialog.getText());
        browser.screenshot("bundles-8-uninstall-confirmation");
        dialog.findElement(By.cssSelector(".hg-confirm-ok")).click();
        Poll.until("the uninstalled bundle to leave the page", UI,
                () -> browser.driver().findElements(By.cssSelector("tr[data-key='" + auditor + "']")).isEmpty());
        assertEquals(404, rest.get("/api/v1/bundles/" + auditor).status());
        assertTrue(consoleRow(AUDITOR_NAME).isEmpty(), "the console no longer lists it");
        assertFalse(listeners(PACKET_IN).contains("auditor"));
        assertTrue(status().equals("Uninstalled bundle " + auditor + " (" + AUDITOR + ")."), status());
        browser.screenshot("bundles-9-uninstalled");
        assertFalse(controller.log().contains(" ERROR "), "no error in the log");
    }

    // --- the pipelines page

    private static void dragBefore(String type, String dragged, String onto) {
        WebElement source = listener(type, dragged);
        WebElement target = listener(type, onto);
        // Chromium starts an HTML5 drag once the held pointer has moved a little; the pauses let it
        // deliver dragenter and dragover before the drop
        new Actions(browser.driver()).moveToElement(source).clickAndHold().moveByOffset(10, -20)
                .pause(Duration.ofMillis(200))
                .moveToElement(target, 0, -target.getSize().getHeight() / 4).pause(Duration.ofMillis(300))
                .moveByOffset(1, -1).release().perform();
    }

    private static WebElement listener(String type, String name) {
        return browser.find("section[data-type=" + type + "] li[data-name='" + name + "']");
    }

    @SuppressWarnings("unchecked")
    private static List<String> shownOrder(String type) {
        return (List<String>) browser.script("return [...document.querySelectorAll("
                + "'section[data-type=' + arguments[0] + '] li.hg-listener')].map(li => li.dataset.name)", type);
    }

    private static String card(String type, String css) {
        return browser.find("section[data-type=" + type + "] " + css).getText();
    }

    private static List<String> listeners(String type) {
        return names(rest.get("/api/v1/pipelines/" + type).json().get("listeners"));
    }

    private static List<String> names(JsonNode array) {
        List<String> names = new ArrayList<>();
        array.forEach(n -> names.add(n.asText()));
        return names;
    }

    /** The PACKET_IN line of the console's pipelines command, "a -> b -> c". */
    private static String consolePipeline() {
        String output = controller.console("heliograph:pipelines", PACKET_IN_LINE, CONSOLE);
        Matcher m = PACKET_IN_LINE.matcher(output);
        assertTrue(m.find(), output);
        return m.group(1).strip();
    }

    // --- the bundles page

    private static WebElement row(long id) {
        return browser.find("tr[data-key='" + id + "']");
    }

    /**
     * The state the bundle's row shows, read in one step in the page: the page redraws its table every few
     * seconds and after each operation, so an element found a moment earlier may be gone (stale).
     */
    private static String shownState(long id) {
        return (String) browser.script("const state = document.querySelector("
                + "`tr[data-key='${arguments[0]}'] .hg-state`); return state ? state.innerText.trim() : null;",
                Long.toString(id));
    }

    /**
     * The outcome note in the bundle's row, read in one step in the page (see {@link #shownState}): its
     * text and whether the window shows it whole; null while the row has none.
     */
    private static Map<?, ?> rowOutcome(long id) {
        return (Map<?, ?>) browser.script("const note = document.querySelector("
                + "`tr[data-key='${arguments[0]}'] .hg-row-outcome`); if (!note) return null;"
                + "const box = note.getBoundingClientRect();"
                + "return {text: note.innerText.trim(), inSight: box.top >= 0 && box.bottom <= window.innerHeight};",
                Long.toString(id));
    }

    /** Whether the bundle's row carries the platform mark, read in one step in the page (see {@link #shownState}). */
    private static boolean platformMarked(long id) {
        return (Boolean) browser.script("return document.querySelector("
                + "`tr[data-key='${arguments[0]}'] .hg-platform-badge`) !== null;", Long.toString(id));
    }

    private static String status() {
        return browser.find(".hg-bundles-status").getText();
    }

    /** Clicks the row's button; the page redraws its table every few seconds, so a stale button is found again. */
    private static void clickInRow(long id, String action) {
        Poll.until("the " + action + " button of bundle " + id, UI, () -> {
            row(id).findElement(By.cssSelector("button[data-action=" + action + "]")).click();
            return true;
        }, Boolean::booleanValue);
    }

    private static void install(Path jar) {
        Poll.until("the install form to take " + jar.getFileName(), UI, () -> {
            WebElement file = browser.find("#hg-install-file");
            file.clear();
            file.sendKeys(jar.toAbsolutePath().toString());
            return true;
        }, Boolean::booleanValue);
        browser.find(".hg-bundle-install button[type=submit]").click();
    }

    private static Optional<Long> bundleId(String symbolicName) {
        for (JsonNode b : rest.get("/api/v1/bundles").json()) {
            if (b.get("symbolicName").asText().equals(symbolicName)) {
                return Optional.of(b.get("id").asLong());
            }
        }
        return Optional.empty();
    }

    private static String restState(long id) {
        return rest.get("/api/v1/bundles/" + id).json().get("state").asText();
    }

    private static Optional<BundleList.Row> consoleRow(String name) {
        return controller.bundles(CONSOLE).find(name);
    }

    private static long installedOverRest(Path jar) {
        RestClient.Response installed = rest.upload("/api/v1/bundles", "file", jar);
        assertEquals(201, installed.status(), installed.toString());
        return installed.json().get("id").asLong();
    }

    /** An app with one PACKET_IN listener, "auditor", that lets every packet through. */
    private static Path buildAuditor() {
        return SourceBundle.build(distribution, artifacts.resolve("auditor.jar").toAbsolutePath(), Map.of(
                "Bundle-SymbolicName", AUDITOR,
                "Bundle-Name", AUDITOR_NAME,
                "Bundle-Version", "1.0.0",
                "Bundle-Activator", "test.auditor.Activator",
                "Import-Package", "org.osgi.framework, io.heliograph.core, org.projectfloodlight.openflow.protocol"),
                Map.of("test.auditor.Activator", """
                        package test.auditor;

                        import java.util.Set;
                        import org.osgi.framework.BundleActivator;
                        import org.osgi.framework.BundleContext;
                        import org.projectfloodlight.openflow.protocol.OFMessage;
                        import org.projectfloodlight.openflow.protocol.OFType;
                        import io.heliograph.core.MessageListener;
                        import io.heliograph.core.OFSwitch;

                        public class Activator implements BundleActivator {
                            public void start(BundleContext context) {
                                context.registerService(MessageListener.class, new MessageListener() {
                                    public String getName() {
                                        return "auditor";
                                    }

                                    public Set<OFType> getTypes() {
                                        return Set.of(OFType.PACKET_IN);
                                    }

                                    public Command receive(OFSwitch sw, OFMessage message) {
                                        return Command.CONTINUE;
                                    }
                                }, null);
                            }

                            public void stop(BundleContext context) {
                            }
                        }
                        """));
    }
}
