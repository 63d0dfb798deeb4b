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
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.Testbed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * Issue 5, item 3 (the "open a switch's flows" part): the switches pages in headless Chromium against a
 * real controller and a small real OVS network: a line of three bridges with a host each, the first two
 * OpenFlow 1.3 and the last OpenFlow 1.5 (issue 18: its counters are OXS statistics), and a fourth
 * bridge that speaks only OpenFlow 1.0. On the middle bridge the test puts, with
 * ovs-ofctl, flows carrying a recognisable cookie (0xfeed...), one in table 1, a group and a meter.
 *
 * <p>The operator logs in and sees every bridge in the switch list; clicks the middle one and opens its
 * flows tab; filters by the cookie and sees exactly the flows {@code ovs-ofctl dump-flows} shows with
 * that cookie (same count, same priorities, tables and ports matched); sorts by priority both ways. The
 * ports tab lists the bridge's ports as {@code ovs-ofctl dump-ports-desc} does, and, while h1 pings h3
 * through the bridge, the statistics app's rates for both cables. The tables, groups and meters tabs
 * show what was put on the switch; the OpenFlow 1.0 bridge's groups and meters tabs say that its
 * version has none, without an error; the OpenFlow 1.5 bridge's flows tab shows each flow's counters and
 * its ports tab the port counters and rates; an unknown dpid gets a clear "no switch" page. A screenshot
 * of each page and tab is kept.
 *
 * <p>Issue 20: every page the navigation lists (Overview, Topology, Switches and Hosts first, in that
 * order), and a switch's ports tab, open with no error in the browser's console, no failed request
 * and nothing wider than the page; leaving each page is part of it (the topology page's drawImage
 * error came as the operator left it). A screenshot of each is kept ({@code page-<id>.png}).
 */
@Timeout(300)
// Isolated: asserts the stats poll interval the page learns is under 2 s and the pings' byte rates
@Isolated
class SwitchPagesIT {

    private static final Duration PAGE = Duration.ofSeconds(30);
    /** The top 16 bits of the test's own flows' cookies, so that no app's flow is taken for one. */
    private static final String TEST_COOKIE = "0xfeed";
    private static final String TEST_COOKIE_MATCH = "cookie=0xfeed000000000000/0xffff000000000000";
    private static final Pattern COOKIE = Pattern.compile("\\bcookie=(0x\\p{XDigit}+)");
    private static final Pattern TABLE = Pattern.compile("\\btable=(\\d+)");
    /** ovs-ofctl's tp_dst=7001 and the REST API's tcp_dst=7001 / udp_dst=7004. */
    private static final Pattern OVS_DST_PORT = Pattern.compile("\\btp_dst=(\\d+)");
    private static final Pattern API_DST_PORT = Pattern.compile("\\b(?:tcp|udp)_dst=(\\d+)");
    /** " 1(ab12s2-h2): addr:..." and " LOCAL(ab12s2): addr:..." in dump-ports-desc. */
    private static final Pattern PORT_DESC = Pattern.compile("^\\s*(\\d+|LOCAL)\\((\\S+)\\): addr:", Pattern.MULTILINE);
    private static final long LOCAL_PORT = 0xfffffffeL;
    /**
     * Five 98-byte echo requests a second one way and as many replies the other: 490 B/s each way. Most of
     * it is well above the odd LLDP frame or ARP an idle cable carries; the rest allows for a poll that
     * catches a ping less.
     */
    private static final double PING_BYTES_PER_SECOND = 300;
    private static final Pattern RATE = Pattern.compile("([0-9.]+) (B|KiB|MiB|GiB)/s");
    private static final Pattern BYTES = Pattern.compile("([0-9.]+) (B|KiB|MiB|GiB)");
    private static final Pattern POLLS_EVERY = Pattern.compile(
            "^Rates from the statistics app, which polls the switch every ([0-9.]+) s;");

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static Testbed testbed;
    private static Testbed.LinearTopology line;
    private static Bridge middle;
    private static Bridge of10;
    private static Bridge of15;
    private static Browser browser;
    private static boolean pinging;

    @BeforeAll
    static void start() {
        artifacts = ArtifactDirectory.forTest("SwitchPagesIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        // rates after a second or two of traffic instead of ten
        distribution.configure("io.heliograph.stats", Map.of("intervalMs", "1000"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        testbed = Testbed.start("SwitchPagesIT");
        String target = testbed.controllerTarget("tcp", controller.openflowPort());
        // s1 - s2 - s3, hI on port 1 of sI; s2's cables: port 2 to s1, port 3 to s3; s3's: port 2 to s2
        line = testbed.linearOfVersions(List.of("OpenFlow13", "OpenFlow13", "OpenFlow15"), target);
        middle = line.switches().get(1);
        of15 = line.switches().get(2);
        of10 = testbed.addSwitch(4, List.of("OpenFlow10"));
        of10.setController(target);
        controller.awaitSwitches(4, Duration.ofSeconds(60));

        // added after the switch connected: the handshake clears the flow table
        middle.ofctl("add-group", "group_id=7,type=all,bucket=output:1,bucket=output:2");
        middle.ofctl("add-meter", "meter=3,kbps,burst,band=type=drop,rate=1000,burst_size=100");
        middle.ofctl("add-flow", "cookie=0xfeed000000000001,priority=310,tcp,tp_dst=7001,actions=output:1");
        middle.ofctl("add-flow", "cookie=0xfeed000000000002,priority=330,tcp,tp_dst=7002,actions=output:2");
        middle.ofctl("add-flow", "cookie=0xfeed000000000003,priority=320,tcp,tp_dst=7003,actions=drop");
        middle.ofctl("add-flow", "cookie=0xfeed000000000004,table=1,priority=100,udp,tp_dst=7004,actions=output:3");
        middle.ofctl("add-flow", "cookie=0xfeed000000000005,priority=340,udp,tp_dst=7005,actions=meter:3,group:7");

        browser = Browser.start(artifacts, 1400, 900);
        browser.logIn(controller);
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("SwitchPagesIT");
        cleanup.close("browser", browser);
        cleanup.close("testbed", testbed);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void theSwitchListShowsEveryBridgeAndARowOpensItsSwitch() {
        WebElement link = Poll.until("the switches page in the navigation", PAGE,
                () -> browser.find("#nav a[href='#/switches']"), WebElement::isDisplayed);
        assertEquals("Switches", link.getText());
        link.click();
        Set<String> bridges = new TreeSet<>();
        line.switches().forEach(b -> bridges.add(b.dpid()));
        bridges.add(of10.dpid());
        List<Map<String, String>> rows = Poll.until("the switch list to show the four bridges", PAGE,
                () -> rows(".hg-switch-list"), r -> r.size() == bridges.size());
        assertEquals(bridges, rows.stream().map(r -> r.get("dpid")).collect(Collectors.toCollection(TreeSet::new)));
        for (Map<String, String> row : rows) {
            String version = row.get("dpid").equals(of10.dpid()) ? "OpenFlow 1.0"
                    : row.get("dpid").equals(of15.dpid()) ? "OpenFlow 1.5" : "OpenFlow 1.3";
            assertEquals(version, row.get("version"), row.toString());
            // what OVS says it is, from the switch's description
            assertEquals("Open vSwitch", row.get("hardware"), row.toString());
            assertEquals("Nicira, Inc.", row.get("manufacturer"), row.toString());
        }
        browser.screenshot("1-switch-list");

        browser.find(".hg-switch-list .hg-filter").sendKeys(of10.dpid());
        List<Map<String, String>> filtered = Poll.until("the filter to leave the OpenFlow 1.0 bridge", PAGE,
                () -> rows(".hg-switch-list"), r -> r.size() == 1);
        assertEquals(of10.dpid(), filtered.get(0).get("dpid"));

        // a click anywhere on the row, not only on its link
        browser.find(".hg-switch-list tbody tr[data-key='" + of10.dpid() + "'] td:nth-child(3)").click();
        Poll.until("the OpenFlow 1.0 switch's page", PAGE, () -> route(), ("#/switches/" + of10.dpid())::equals);
        Poll.until("its header", PAGE, () -> browser.find(".hg-switch-header .hg-dpid").getText(), of10.dpid()::equals);
        Poll.until("the role cell to say why there is no role", PAGE, () -> browser.find(".hg-role").getText(),
                t -> t.contains("no roles before OpenFlow 1.2"));
    }

    @Test
    void theFlowsTabShowsWhatTheSwitchHasFilteredAndSorted() {
        browser.openPage("#/switches");
        Poll.until("the middle bridge in the list", PAGE, () -> rows(".hg-switch-list").size() == 4);
        browser.find(".hg-switch-list a[href='#/switches/" + middle.dpid() + "']").click();
        Poll.until("the middle bridge's page", PAGE, () -> route(), ("#/switches/" + middle.dpid())::equals);
        browser.find(".hg-tabs a[data-tab=flows]").click();
        Poll.until("the flows tab", PAGE, () -> route(), ("#/switches/" + middle.dpid() + "/flows")::equals);
        Poll.until("the flows to be read", PAGE, () -> rows(".hg-flows").size() > 5);
        browser.screenshot("2-flows");

        List<FlowEntry> onSwitch = FlowEntry.parseDump(middle.ofctl("dump-flows", TEST_COOKIE_MATCH));
        assertEquals(5, onSwitch.size(), onSwitch.toString());
        browser.find(".hg-flows .hg-filter").sendKeys(TEST_COOKIE);
        List<Map<String, String>> shown = Poll.until("the filter to keep the test's flows", PAGE,
                () -> rows(".hg-flows"), r -> r.size() == onSwitch.size());
        String counted = browser.find(".hg-flows .hg-count").getText();
        assertTrue(counted.startsWith(onSwitch.size() + " of "), "the count says how many of all flows match: " + counted);

        // the same flows: by cookie, each with its table, priority and matched port
        Map<String, String> expected = new TreeMap<>();
        for (FlowEntry f : onSwitch) {
            expected.put(find(COOKIE, f.line()), find(TABLE, f.line(), "0") + " " + f.priority() + " "
                    + find(OVS_DST_PORT, f.match()));
        }
        Map<String, String> inPage = new TreeMap<>();
        for (Map<String, String> r : shown) {
            inPage.put(r.get("cookie"), r.get("tableId") + " " + r.get("priority") + " " + find(API_DST_PORT, r.get("match")));
        }
        assertEquals(expected, inPage);
        Map<String, String> metered = shown.stream().filter(r -> r.get("cookie").endsWith("5")).findFirst().orElseThrow();
        assertEquals("meter=3; group=7", metered.get("instructions"), metered.toString());
        browser.screenshot("3-flows-filtered");

        List<Integer> ascending = onSwitch.stream().map(FlowEntry::priority).sorted().toList();
        browser.find(".hg-flows th[data-key=priority]").click();
        assertEquals(ascending, priorities(), "sorted by priority");
        browser.find(".hg-flows th[data-key=priority]").click();
        List<Integer> descending = new ArrayList<>(ascending);
        Collections.reverse(descending);
        assertEquals(descending, priorities(), "sorted by priority, highest first");
        browser.screenshot("4-flows-sorted");
    }

    /**
     * Five pings a second from h1 to h3, for two minutes, started once: across s2 requests come in at
     * the cable from s1 (port 2) and leave at the one to s3 (port 3); on s3 they come in at port 2 and
     * leave at h3's port 1; replies the other way.
     */
    private static synchronized void pingAcrossTheLine() {
        if (pinging) {
            return;
        }
        Host h1 = line.hosts().get(0);
        Host h3 = line.hosts().get(2);
        h1.awaitReachable(h3, PAGE);
        h1.startBackground(artifacts.resolve("ping-h1-h3.log"), "ping", "-i", "0.2", "-c", "600", h3.ip());
        pinging = true;
    }

    @Test
    void thePortsTabListsTheBridgesPortsWithTheirRates() {
        pingAcrossTheLine();

        browser.openPage("#/switches/" + middle.dpid() + "/ports");
        Map<Long, String> ports = new TreeMap<>();
        Matcher m = PORT_DESC.matcher(middle.ofctl("dump-ports-desc"));
        while (m.find()) {
            ports.put(m.group(1).equals("LOCAL") ? LOCAL_PORT : Long.parseLong(m.group(1)), m.group(2));
        }
        assertEquals(Set.of(1L, 2L, 3L, LOCAL_PORT), ports.keySet(), "s2's ports as OVS lists them");
        List<Map<String, String>> shown = Poll.until("both of s2's cables to show traffic rates", PAGE,
                () -> rows(".hg-ports"), r -> busy(r, "2") && busy(r, "3"));
        Map<Long, String> inPage = new TreeMap<>();
        shown.forEach(r -> inPage.put(Long.parseLong(r.get("key")), r.get("name")));
        assertEquals(ports, inPage, "port numbers and names");
        // the app polls 1 s after the end of its last poll: the page learns about that from the samples' times
        String note = browser.find(".hg-rates-note").getText();
        Matcher every = POLLS_EVERY.matcher(note);
        assertTrue(every.find(), note);
        double seconds = Double.parseDouble(every.group(1));
        assertTrue(seconds >= 1 && seconds < 2, "the poll interval the page learnt: " + note);
        // the sparkline has more than one reading once the rates have been read twice
        Poll.until("a traffic line for port 2", PAGE, () -> (String) browser.script(
                "return document.querySelector(\".hg-ports tr[data-key='2'] svg\").dataset.points"),
                points -> Integer.parseInt(points) >= 2);
        browser.screenshot("5-ports");
    }

    @Test
    void theTablesGroupsAndMetersTabsShowWhatIsOnTheSwitch() {
        browser.openPage("#/switches/" + middle.dpid() + "/tables");
        List<Map<String, String>> tables = Poll.until("tables 0 and 1 in use", PAGE, () -> rows(".hg-tables"),
                r -> r.stream().map(t -> t.get("tableId")).collect(Collectors.toSet()).containsAll(Set.of("0", "1")));
        assertTrue(tables.size() < 10, "unused tables are hidden: " + tables);
        assertEquals("1", tables.stream().filter(t -> t.get("tableId").equals("1")).findFirst().orElseThrow()
                .get("activeCount"), "table 1 has the one flow the test put there");
        browser.screenshot("6-tables");
        browser.find(".hg-all-tables").click();
        Poll.until("every table once asked for", PAGE, () -> rows(".hg-tables").size() > 200);

        browser.openPage("#/switches/" + middle.dpid() + "/groups");
        Map<String, String> group = Poll.until("group 7", PAGE, () -> rows(".hg-groups"), r -> r.size() == 1).get(0);
        assertEquals("7", group.get("groupId"));
        assertEquals("ALL", group.get("type"));
        assertEquals("output=1\noutput=2", group.get("buckets").strip(), group.toString());
        assertEquals("1", group.get("referenceCount"), "the metered flow uses the group: " + group);
        browser.screenshot("7-groups");

        browser.openPage("#/switches/" + middle.dpid() + "/meters");
        Map<String, String> meter = Poll.until("meter 3", PAGE, () -> rows(".hg-meters"), r -> r.size() == 1).get(0);
        assertEquals("3", meter.get("meterId"));
        assertTrue(meter.get("bands").startsWith("drop above 1000 kbit/s, burst 100"), meter.toString());
        assertEquals("1", meter.get("flowCount"), "the metered flow uses the meter: " + meter);
        browser.screenshot("8-meters");
    }

    @Test
    void anOpenFlow10SwitchHasNoGroupsOrMetersAndSaysSo() {
        for (String tab : List.of("groups", "meters")) {
            browser.openPage("#/switches/" + of10.dpid() + "/" + tab);
            String said = Poll.until("the " + tab + " tab to explain", PAGE,
                    () -> browser.find(".hg-unsupported").getText(), t -> !t.isEmpty());
            assertTrue(said.contains("OpenFlow 1.0") && said.contains(tab), said);
            assertTrue(browser.driver().findElements(By.cssSelector("#page .error")).stream()
                    .noneMatch(WebElement::isDisplayed), "no error on a 1.0 switch's " + tab + " tab");
            browser.screenshot("9-openflow10-" + tab);
        }
    }

    @Test
    void anOpenFlow15SwitchShowsItsFlowAndPortCounters() {
        pingAcrossTheLine();

        browser.openPage("#/switches/" + of15.dpid() + "/flows");
        List<Map<String, String>> flows = Poll.until("s3's flows with the pings counted", PAGE, () -> rows(".hg-flows"),
                r -> r.stream().anyMatch(f -> number(f.get("packets")) >= 5));
        for (Map<String, String> f : flows) {
            assertTrue(number(f.get("packets")) >= 0 && number(f.get("bytes")) >= 0 && !f.get("durationSeconds")
                    .isBlank(), "every flow has its counters and age: " + f);
        }
        assertFalse(browser.find(".hg-status").getAttribute("class").contains("error"),
                browser.find(".hg-status").getText());
        browser.screenshot("11-openflow15-flows");

        browser.openPage("#/switches/" + of15.dpid() + "/ports");
        List<Map<String, String>> ports = Poll.until("s3's ports with counters and the pings' rates", PAGE,
                () -> rows(".hg-ports"), r -> busy(r, "1") && busy(r, "2")
                        && r.stream().filter(p -> p.get("key").equals("1")).allMatch(p -> bytes(p.get("rxBytes")) > 0));
        assertTrue(ports.stream().allMatch(p -> !p.get("rxBytes").isBlank() && !p.get("errors").isBlank()),
                "every port has its counters: " + ports);
        String status = browser.find(".hg-status").getText();
        assertFalse(status.contains("no counters"), status);
        browser.screenshot("12-openflow15-ports");
    }

    @Test
    void everyPageOpensWithoutAnErrorOrAFailedRequest() {
        pingAcrossTheLine(); // hosts the topology and hosts pages can show
        browser.openPage("#/overview");
        List<String> pages = navigation();
        assertEquals(List.of("#/overview", "#/topology", "#/switches", "#/hosts"), pages.subList(0, Math.min(4, pages.size())),
                "the pages an operator opens first lead the navigation: " + pages);
        assertEquals("#/api", pages.get(pages.size() - 1), "the API reference closes it: " + pages);
        assertTrue(pages.containsAll(List.of("#/cluster", "#/bundles", "#/pipelines", "#/static-flows")), pages.toString());
        browser.consoleErrors(); // what earlier tests' pages said is theirs
        browser.script(TRACK_REQUESTS);

        List<String> problems = new ArrayList<>();
        List<String> visits = new ArrayList<>(pages);
        visits.add("#/switches/" + middle.dpid() + "/ports"); // the widest table
        visits.add("#/overview"); // leaving the last page, which is part of it
        String previous = "#/overview";
        for (String page : visits) {
            browser.openPage(page);
            Poll.until("the requests of " + page + " to be answered", PAGE,
                    () -> ((Number) browser.script("return window.hgRequests.inFlight")).intValue() == 0);
            browser.screenshot("page-" + page.substring(2).replace('/', '-'));
            for (String error : browser.consoleErrors()) {
                problems.add("on " + page + " (or leaving " + previous + "): " + error);
            }
            @SuppressWarnings("unchecked")
            List<String> failed = (List<String>) browser.script(
                    "return window.hgRequests.failed.splice(0).map(r => r.status + ' ' + r.url)");
            failed.forEach(f -> problems.add("on " + page + ": request answered " + f));
            @SuppressWarnings("unchecked")
            List<String> wide = (List<String>) browser.script(OVERFLOWING);
            wide.forEach(w -> problems.add("on " + page + ": wider than the page: " + w));
            previous = page;
        }
        assertEquals(List.of(), problems, "what the pages said and did wrong");

        // what else issue 20 found on these pages: unlabelled hosts, role colours without a legend, and
        // a cluster page of ids and generations on a controller that runs alone
        browser.openPage("#/topology");
        Poll.until("hosts labelled on the topology", PAGE, () -> (String) browser.script(
                "return document.querySelector('.hg-topology-canvas').dataset.hostLabels || '0'"),
                labelled -> Integer.parseInt(labelled) > 0);
        String roles = browser.find(".hg-topology-roles").getText();
        assertTrue(roles.contains("host") && roles.length() > "host".length(), "the role legend: " + roles);
        browser.openPage("#/cluster");
        String instance = controller.rest().get("/api/v1/controller").json().get("instanceId").asText();
        String single = Poll.until("the cluster page to say that this instance runs alone", PAGE,
                () -> browser.find(".hg-single-instance").getText(), t -> t.contains(instance));
        assertTrue(single.startsWith("Single instance."), single);
        assertFalse(browser.find(".hg-cluster-tables").isDisplayed(), "no tables of one instance's ids");
    }

    /**
     * Counts the page's requests in flight (the live events stream, which never ends, aside) and keeps
     * those answered with an error status: the console says so too, but not always with the address.
     */
    private static final String TRACK_REQUESTS = """
            if (window.hgRequests) return;
            const tracked = { inFlight: 0, failed: [] };
            window.hgRequests = tracked;
            const original = window.fetch;
            window.fetch = function (input, init) {
              const url = String(input && input.url ? input.url : input);
              const answer = original.apply(this, arguments);
              if (url.includes('/api/v1/events')) return answer;
              tracked.inFlight++;
              return answer.then((response) => {
                if (response.status >= 400) tracked.failed.push({ status: response.status, url });
                return response;
              }).finally(() => { tracked.inFlight--; });
            };""";

    /**
     * The outermost elements of the page whose right edge is past the page's and that no scrolling or
     * clipping box between them and the page contains: what makes the operator scroll the whole page
     * sideways.
     */
    private static final String OVERFLOWING = """
            const page = document.getElementById('page');
            const limit = page.getBoundingClientRect().right + 1;
            const contained = (e) => {
              for (let a = e.parentElement; a && a !== page; a = a.parentElement) {
                if (getComputedStyle(a).overflowX !== 'visible') return true;
              }
              return false;
            };
            const over = (e) => e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().right > limit;
            return [...page.querySelectorAll('*')]
              .filter((e) => over(e) && !contained(e) && !(e.parentElement !== page && over(e.parentElement)))
              .slice(0, 5)
              .map((e) => e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className : '')
                + ' to ' + Math.round(e.getBoundingClientRect().right) + ' px, the page to ' + Math.round(limit - 1));""";

    @SuppressWarnings("unchecked")
    private static List<String> navigation() {
        return (List<String>) browser.script("return [...document.querySelectorAll('#nav a')].map(a => a.getAttribute('href'))");
    }

    @Test
    void anUnknownSwitchGetsAClearAnswer() {
        browser.openPage("#/switches/00:00:00:00:00:00:99:99/flows");
        assertEquals("No switch 00:00:00:00:00:00:99:99", browser.find("#page h1").getText());
        String why = browser.find(".hg-no-switch").getText();
        assertTrue(why.contains("no switch 00:00:00:00:00:00:99:99 is connected"), why);
        browser.openPage("#/switches/not-a-dpid");
        String malformed = browser.find(".hg-no-switch").getText();
        assertTrue(malformed.contains("not-a-dpid"), malformed);
        browser.screenshot("10-unknown-switch");
    }

    // ---- the page ----

    private static String route() {
        return (String) browser.script("return document.getElementById('page').dataset.route || ''");
    }

    /**
     * The rows a DataTable shows, in order: each cell's text by its column's key, and the row's key
     * under "key" (an empty table's single "nothing to show" row is no row).
     */
    @SuppressWarnings("unchecked")
    private static List<Map<String, String>> rows(String table) {
        return (List<Map<String, String>>) browser.script("""
                const table = document.querySelector(arguments[0]);
                if (!table) return [];
                const keys = [...table.querySelectorAll('thead th')].map(th => th.dataset.key);
                return [...table.querySelectorAll('tbody tr[data-key]')].map(tr => {
                  const row = { key: tr.dataset.key };
                  [...tr.children].forEach((td, i) => { row[keys[i]] = td.innerText; });
                  return row;
                });""", table);
    }

    private static List<Integer> priorities() {
        return rows(".hg-flows").stream().map(r -> Integer.parseInt(r.get("priority"))).toList();
    }

    /** Whether port {@code key}'s row shows the pings' rate (or more) both received and sent. */
    private static boolean busy(List<Map<String, String>> rows, String key) {
        return rows.stream().filter(r -> r.get("key").equals(key)).anyMatch(r -> bytesPerSecond(r.get("rxBytesPerSecond"))
                >= PING_BYTES_PER_SECOND && bytesPerSecond(r.get("txBytesPerSecond")) >= PING_BYTES_PER_SECOND);
    }

    /** A count as the page writes it ("1,234"); -1 when the cell is empty. */
    private static long number(String cell) {
        return cell == null || cell.isBlank() ? -1 : Long.parseLong(cell.replace(",", "").strip());
    }

    /** "980 B", "1.25 KiB" as a number of bytes; an empty cell is -1. */
    private static double bytes(String cell) {
        Matcher m = BYTES.matcher(cell == null ? "" : cell.strip());
        if (!m.matches()) {
            return -1;
        }
        return Double.parseDouble(m.group(1)) * Math.pow(1024, List.of("B", "KiB", "MiB", "GiB").indexOf(m.group(2)));
    }

    /** "490 B/s", "1.25 KiB/s" as a number; a dash (no rate yet) is 0. */
    private static double bytesPerSecond(String rate) {
        Matcher m = RATE.matcher(rate == null ? "" : rate);
        if (!m.matches()) {
            return 0;
        }
        int power = List.of("B", "KiB", "MiB", "GiB").indexOf(m.group(2));
        return Double.parseDouble(m.group(1)) * Math.pow(1024, power);
    }

    private static String find(Pattern pattern, String text) {
        return find(pattern, text, null);
    }

    private static String find(Pattern pattern, String text, String otherwise) {
        Matcher m = pattern.matcher(text);
        if (m.find()) {
            return m.group(1);
        }
        if (otherwise == null) {
            throw new AssertionError("no " + pattern + " in " + text);
        }
        return otherwise;
    }
}
