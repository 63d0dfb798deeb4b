package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.Browser;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.FlowEntry;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.NetworkView;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.Testbed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Issue 5, item 3 (the static flows editor and the hosts page), in headless Chromium against the real
 * distribution and two real Open vSwitch bridges (OpenFlow 1.3, {@code s1 - s2}, host h1 on s1 and h2
 * on s2). The operator logs in and, on the Static flows page the static flows app contributes:
 * <ul>
 *   <li>submits a flow without a name: the editor says so next to the name and sends nothing;</li>
 *   <li>submits a flow with a bad match value: the API's message, naming the field, shows next to
 *       that match field's row, and neither the stored entries nor the switch's flow table change;</li>
 *   <li>mends it and adds it: it is on s1 ({@code ovs-ofctl dump-flows}) with the match, priority and
 *       actions given; edits it (priority and action): the switch has the new flow instead of the old;
 *       deletes it, confirming in the row: it leaves the switch;</li>
 *   <li>adds a group, whose buckets only the JSON document holds, after editing its id there: it is on
 *       s1 ({@code dump-groups}); deleted, it leaves.</li>
 * </ul>
 * On the Hosts page the devices app contributes, after the hosts pinged, a search by h2's MAC and one
 * by h1's IP each show exactly that host, attached at its own switch and port. Stopping the static
 * flows app in the controller console takes its page out of the navigation; starting it brings it
 * back. Screenshots of each state are kept as artifacts.
 */
@Timeout(300)
class StaticFlowsPageIT {

    private static final Duration PAGE = Duration.ofSeconds(30);
    private static final Duration NETWORK = Duration.ofSeconds(60);
    /** The flows the static flows app installs carry "SF" in the top 16 bits of their cookie. */
    private static final String STATIC_COOKIE_MATCH = "cookie=0x5346000000000000/0xffff000000000000";

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static Testbed testbed;
    private static Bridge s1;
    private static Bridge s2;
    private static Host h1;
    private static Host h2;
    private static Browser browser;

    @BeforeAll
    static void start() {
        artifacts = ArtifactDirectory.forTest("StaticFlowsPageIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        testbed = Testbed.start("StaticFlowsPageIT");
        // s1: h1 on port 1, s2 on port 2; s2: h2 on port 1, s1 on port 2
        Testbed.LinearTopology line = testbed.linear(2, List.of("OpenFlow13"),
                testbed.controllerTarget("tcp", controller.openflowPort()));
        s1 = line.switches().get(0);
        s2 = line.switches().get(1);
        h1 = line.first();
        h2 = line.last();
        controller.awaitSwitches(2, NETWORK);
        // the link first, so that the hosts are placed at their edge ports and not at the cable's
        Set<String> cable = Set.of(s1.dpid() + "/2 -> " + s2.dpid() + "/2", s2.dpid() + "/2 -> " + s1.dpid() + "/2");
        Poll.until("the controller to know the cable s1 - s2", NETWORK, () -> NetworkView.links(controller), cable::equals);
        h1.awaitReachable(h2, NETWORK);
        Map<String, String> placed = Map.of(h1.mac(), NetworkView.attachment(h1, s1, 1),
                h2.mac(), NetworkView.attachment(h2, s2, 1));
        Poll.until("the controller to place h1 and h2", NETWORK, () -> NetworkView.hosts(controller), placed::equals);
        browser = Browser.start(artifacts, 1280, 1400);   // tall: the editor and the list in one screenshot
        browser.logIn(controller);
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("StaticFlowsPageIT");
        cleanup.close("browser", browser);
        cleanup.close("testbed", testbed);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void theEditorRefusesABadFieldThenAddsEditsAndDeletesAFlowOnTheSwitch() {
        RestClient rest = controller.rest();
        openFromNavigation("#/static-flows");
        Poll.until("both switches to choose from", PAGE, () -> new Select(browser.find(".hg-sf-editor select[name=switch]"))
                .getOptions().stream().map(o -> o.getAttribute("value")).toList(),
                values -> values.contains(s1.dpid()) && values.contains(s2.dpid()));
        // both switches answer their statistics: reconciled, and the entries' switches carry no note
        for (Bridge s : List.of(s1, s2)) {
            Poll.until(s.name() + "'s reconciliation OK in the page", PAGE,
                    () -> browser.find(".hg-sf-reconciliation tr[data-key='" + s.dpid() + "']").getText(),
                    t -> t.startsWith(s.dpid() + " OK"));
        }
        browser.screenshot("1-static-flows");
        String storedBefore = rest.get("/api/v1/staticflows").body();
        List<String> tableBefore = controlledFlows(s1);

        // no name: the editor says so by the name and sends nothing
        new Select(browser.find(".hg-sf-editor select[name=switch]")).selectByValue(s1.dpid());
        type(field("priority"), "200");
        addMatch("eth_type", "0x0800");
        addMatch("ip_proto", "17");
        addMatch("udp_dst", "5001");
        addMatch("ipv4_dst", "10.0.0.300");
        type(field("instruction_apply_actions"), "output=2");
        submit();
        String noName = Poll.until("the editor to ask for a name", PAGE, () -> errorOf("name"), t -> !t.isEmpty());
        assertTrue(noName.contains("name"), noName);
        assertTrue(document().contains("\"ipv4_dst\": \"10.0.0.300\""), "the form's fields are in the document: " + document());
        browser.screenshot("2-no-name");

        // a bad match value: the API refuses it, and the message names the field, next to its row
        type(field("name"), "ui-web");
        submit();
        String refusal = Poll.until("the refusal next to ipv4_dst", PAGE, () -> matchRowError("ipv4_dst"), t -> !t.isEmpty());
        assertTrue(refusal.contains("ipv4_dst") && refusal.contains("10.0.0.300"), refusal);
        assertEquals("", errorOf("name"), "the name's message went once the name was given");
        assertEquals(storedBefore, rest.get("/api/v1/staticflows").body(), "a refused entry is not stored");
        assertEquals(tableBefore, controlledFlows(s1), "a refused entry reaches no switch");
        System.out.printf("refusal shown next to ipv4_dst: %s%n", refusal);
        browser.screenshot("3-refused-bad-field");

        // mended, it is added and on the switch as given
        type(matchRow("ipv4_dst").findElement(By.cssSelector(".hg-sf-match-value")), "10.0.0.2");
        submit();
        String added = Poll.until("the flow to be added", PAGE, this::result, t -> !t.isEmpty());
        assertTrue(added.startsWith("Added flow 'ui-web' on " + s1.dpid() + ": INSTALLED"), added);
        assertEquals("", matchRowError("ipv4_dst"));
        FlowEntry flow = onlyStaticFlow(s1, "tp_dst=5001");
        assertEquals("udp,nw_dst=10.0.0.2,tp_dst=5001", flow.match(), flow.line());
        assertEquals(200, flow.priority(), flow.line());
        assertEquals("output:2", flow.actions(), flow.line());
        JsonNode stored = rest.get("/api/v1/staticflows/flows/" + s1.dpid() + "/ui-web").json();
        assertEquals("INSTALLED", stored.get("state").asText(), stored.toString());
        Poll.until("the flow in the list", PAGE, () -> listed("flow", s1.dpid(), "ui-web"), t -> t.contains("INSTALLED"));
        browser.screenshot("4-added");

        // edited from the list: a new priority and action replace the flow on the switch
        clickListed("flow", s1.dpid(), "ui-web", ".hg-sf-edit");
        Poll.until("the editor to hold ui-web", PAGE, () -> browser.find(".hg-sf-editor h2").getText(),
                t -> t.equals("Editing flow 'ui-web' on " + s1.dpid()));
        assertEquals("Replace", browser.find(".hg-sf-submit").getText());
        assertEquals("10.0.0.2", matchRow("ipv4_dst").findElement(By.cssSelector(".hg-sf-match-value")).getAttribute("value"));
        type(field("priority"), "300");
        type(field("instruction_apply_actions"), "output=1");
        submit();
        String replaced = Poll.until("the flow to be replaced", PAGE, this::result, t -> !t.isEmpty());
        assertTrue(replaced.startsWith("Replaced flow 'ui-web' on " + s1.dpid() + ": INSTALLED"), replaced);
        FlowEntry edited = Poll.until("the edited flow alone on s1", PAGE, () -> staticFlows(s1, "tp_dst=5001"),
                flows -> flows.size() == 1 && flows.get(0).priority() == 300).get(0);
        assertEquals("udp,nw_dst=10.0.0.2,tp_dst=5001", edited.match(), edited.line());
        assertEquals("output:1", edited.actions(), edited.line());
        Poll.until("the edit in the list", PAGE, () -> listed("flow", s1.dpid(), "ui-web"), t -> t.contains("output=1"));
        browser.screenshot("5-edited");

        // deleted from the list, after saying yes: it leaves the switch
        clickListed("flow", s1.dpid(), "ui-web", ".hg-sf-delete");
        Poll.until("the question in the row", PAGE, () -> listed("flow", s1.dpid(), "ui-web"), t -> t.contains("Delete it?"));
        assertEquals(1, staticFlows(s1, "tp_dst=5001").size(), "nothing is deleted before the operator says yes");
        browser.screenshot("6-confirm-delete");
        confirmDelete("flow", s1.dpid(), "ui-web");
        Poll.until("ui-web to leave the list", PAGE,
                () -> browser.driver().findElements(By.cssSelector(rowSelector("flow", s1.dpid(), "ui-web"))).isEmpty());
        assertEquals(List.of(), staticFlows(s1, "tp_dst=5001"), "the deleted flow left the switch");
        assertEquals(404, rest.get("/api/v1/staticflows/flows/" + s1.dpid() + "/ui-web").status());
        assertTrue(browser.find(".hg-sf-list-status").getText().startsWith("Deleted flow 'ui-web'"),
                browser.find(".hg-sf-list-status").getText());
        browser.screenshot("7-deleted");

        // a group: the form has no fields for its buckets, the document holds them, edited as text
        browser.find(".hg-sf-new").click();
        new Select(field("entry_type")).selectByValue("group");
        new Select(field("switch")).selectByValue(s1.dpid());
        type(field("name"), "ui-group");
        assertTrue(document().contains("\"group_buckets\"") && document().contains("\"name\": \"ui-group\""), document());
        type(field("document"), document().replace("\"group_id\": 1,", "\"group_id\": 7,"));
        assertEquals("ui-group", field("name").getAttribute("value"), "the document's name is the form's");
        submit();
        String group = Poll.until("the group to be added", PAGE, this::result, t -> !t.isEmpty());
        assertTrue(group.startsWith("Added group 'ui-group' on " + s1.dpid() + ": INSTALLED"), group);
        assertTrue(s1.ofctl("dump-groups").contains("group_id=7,type=all,bucket=actions=output:1"), s1.ofctl("dump-groups"));
        browser.screenshot("8-group-added");
        clickListed("group", s1.dpid(), "ui-group", ".hg-sf-delete");
        confirmDelete("group", s1.dpid(), "ui-group");
        Poll.until("the group to leave s1", PAGE, () -> s1.ofctl("dump-groups"), groups -> !groups.contains("group_id=7"));
    }

    @Test
    void theHostsPageFindsAHostByItsMacAndByItsIp() {
        openFromNavigation("#/hosts");
        Poll.until("both hosts listed", PAGE, this::hostRows, rows -> rows.size() == 2);
        browser.screenshot("hosts-1-all");

        search(h2.mac());
        assertEquals(List.of(h2.mac() + "/0"), hostRows(), "a search by h2's MAC shows h2 alone");
        assertHostShownAt(h2, s2, 1);
        browser.screenshot("hosts-2-by-mac");

        search(h1.ip());
        assertEquals(List.of(h1.mac() + "/0"), hostRows(), "a search by h1's IP shows h1 alone");
        assertHostShownAt(h1, s1, 1);
        browser.screenshot("hosts-3-by-ip");

        search(h1.mac().toUpperCase().replace(':', '-').substring(9));   // the end of a MAC, as Windows writes it
        assertEquals(List.of(h1.mac() + "/0"), hostRows(), "a part of h1's MAC shows h1 alone");
    }

    @Test
    void theStaticFlowsPageLeavesTheNavigationWhileItsAppIsStopped() {
        openFromNavigation("#/static-flows");
        long app = controller.bundles(Duration.ofSeconds(30)).find("app: static flows").orElseThrow().id();
        controller.console("stop " + app);
        // the shell leaves a page whose app stopped for the overview
        Poll.until("the static flows page to leave the navigation", PAGE, this::navigation,
                pages -> !pages.contains("#/static-flows") && pages.contains("#/hosts"));
        Poll.until("the overview instead", PAGE, () -> (String) browser.script("return location.hash"), "#/overview"::equals);
        browser.screenshot("app-1-stopped");

        controller.console("start " + app);
        openFromNavigation("#/static-flows");
        Poll.until("the editor to show again", PAGE, () -> browser.find(".hg-sf-editor h2").getText(), "New entry"::equals);
        browser.screenshot("app-2-started");
    }

    // ---- the pages ----

    /** Waits for the page to be in the navigation, follows its link there, and waits for it to render. */
    private void openFromNavigation(String hash) {
        Poll.until(hash + " in the navigation", PAGE, this::navigation, pages -> pages.contains(hash));
        // the shell redraws the navigation every few seconds: a link found just before may be gone, so again
        Poll.until("a click on " + hash + " in the navigation", PAGE, () -> {
            browser.find("#nav a[href='" + hash + "']").click();
            return true;
        });
        Poll.until("the UI to show " + hash, PAGE,
                () -> (String) browser.script("return document.getElementById('page').dataset.route || ''"), hash::equals);
    }

    @SuppressWarnings("unchecked")
    private List<String> navigation() {
        return (List<String>) browser.script("return [...document.querySelectorAll('#nav a')].map(a => a.getAttribute('href'))");
    }

    private static WebElement field(String name) {
        return browser.find(".hg-sf-editor [name='" + name + "']");
    }

    private static void type(WebElement input, String text) {
        input.clear();
        input.sendKeys(text);
    }

    private static void addMatch(String field, String value) {
        browser.find(".hg-sf-add-match").click();
        List<WebElement> rows = browser.driver().findElements(By.cssSelector(".hg-sf-match-row"));
        WebElement row = rows.get(rows.size() - 1);
        type(row.findElement(By.cssSelector(".hg-sf-match-field")), field);
        type(row.findElement(By.cssSelector(".hg-sf-match-value")), value);
    }

    private static WebElement matchRow(String field) {
        return browser.driver().findElements(By.cssSelector(".hg-sf-match-row")).stream()
                .filter(r -> field.equals(r.findElement(By.cssSelector(".hg-sf-match-field")).getAttribute("value")))
                .findFirst().orElseThrow(() -> new AssertionError("no match row for " + field));
    }

    private static String matchRowError(String field) {
        return matchRow(field).findElement(By.cssSelector(".hg-sf-error")).getText();
    }

    /** The message shown by the form's field {@code name}. */
    private static String errorOf(String name) {
        return browser.find(".hg-sf-field[data-field='" + name + "'] > .hg-sf-error").getText();
    }

    private static String document() {
        return field("document").getAttribute("value");
    }

    private static void submit() {
        browser.script("document.querySelector('.hg-sf-result').textContent = ''");
        browser.find(".hg-sf-submit").click();
    }

    private String result() {
        return browser.find(".hg-sf-result").getText();
    }

    private static String rowSelector(String kind, String dpid, String name) {
        return ".hg-sf-list[data-kind='" + kind + "'] tr[data-key='" + kind + "/" + dpid + "/" + name + "']";
    }

    private static WebElement listedRow(String kind, String dpid, String name) {
        return browser.find(rowSelector(kind, dpid, name));
    }

    private static String listed(String kind, String dpid, String name) {
        return listedRow(kind, dpid, name).getText();
    }

    /**
     * Clicks a button of a listed entry. The lists are drawn again after each change and on live events,
     * so a button found may be gone by the click: then it is found again.
     */
    private static void clickListed(String kind, String dpid, String name, String button) {
        Poll.until("a click on " + button + " of " + name, PAGE, () -> {
            listedRow(kind, dpid, name).findElement(By.cssSelector(button)).click();
            return true;
        });
    }

    /** Says yes to deleting a listed entry; asks again if the lists were drawn again in between. */
    private static void confirmDelete(String kind, String dpid, String name) {
        Poll.until("a yes to deleting " + name, PAGE, () -> {
            WebElement row = listedRow(kind, dpid, name);
            List<WebElement> yes = row.findElements(By.cssSelector(".hg-sf-confirm-delete"));
            if (yes.isEmpty()) {
                row.findElement(By.cssSelector(".hg-sf-delete")).click();
                return false;
            }
            yes.get(0).click();
            return true;
        });
    }

    /** Types {@code text} into the hosts page's search box and waits for the rows that answer it. */
    private void search(String text) {
        WebElement box = browser.find(".hg-hosts-search");
        box.clear();
        box.sendKeys(text);
        Poll.until("the hosts matching " + text, PAGE,
                () -> (String) browser.script("return document.querySelector('.hg-hosts').dataset.search"), text::equals);
    }

    /** The hosts shown, as MAC/VLAN. */
    @SuppressWarnings("unchecked")
    private List<String> hostRows() {
        return (List<String>) browser.script(
                "return [...document.querySelectorAll('.hg-hosts tbody tr[data-key]')].map(r => r.dataset.key)");
    }

    private void assertHostShownAt(Host host, Bridge bridge, int port) {
        // read at once: a live host event may draw the rows again
        @SuppressWarnings("unchecked")
        List<String> shown = (List<String>) browser.script("const row = document.querySelector("
                + "`.hg-hosts tbody tr[data-key='${arguments[0]}']`);"
                + "return [row.innerText, ...[...row.querySelectorAll('a.hg-host-switch')].map(a => a.getAttribute('href'))]",
                host.mac() + "/0");
        String text = shown.get(0);
        assertTrue(text.contains(host.ip()), text);
        assertTrue(text.contains(bridge.dpid() + " port " + port), text);
        assertEquals(List.of("#/switches/" + bridge.dpid()), shown.subList(1, shown.size()), "the links to switches");
        assertFalse(text.contains(other(host).ip()), text);
    }

    private static Host other(Host host) {
        return host == h1 ? h2 : h1;
    }

    // ---- the switch ----

    /** The static flows on {@code bridge} whose match contains {@code matchPart}. */
    private static List<FlowEntry> staticFlows(Bridge bridge, String matchPart) {
        return FlowEntry.parseDump(bridge.ofctl("dump-flows", STATIC_COOKIE_MATCH)).stream()
                .filter(f -> f.match().contains(matchPart)).toList();
    }

    private static FlowEntry onlyStaticFlow(Bridge bridge, String matchPart) {
        List<FlowEntry> found = staticFlows(bridge, matchPart);
        assertEquals(1, found.size(), "static flows matching " + matchPart + " on " + bridge + ": " + bridge.dumpFlows());
        return found.get(0);
    }

    /** Every flow but those forwarding installs and lets expire, without counters, sorted. */
    private static List<String> controlledFlows(Bridge bridge) {
        return bridge.dumpFlows().stream().filter(f -> !f.isReactive())
                .map(f -> "priority=" + f.priority() + " " + f.match() + " actions=" + f.actions()).sorted().toList();
    }
}
