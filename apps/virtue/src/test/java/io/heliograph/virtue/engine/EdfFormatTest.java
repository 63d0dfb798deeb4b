package io.heliograph.virtue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import io.heliograph.core.json.Json;

@SuppressWarnings("unchecked")
class EdfFormatTest {

    static String appendixB() {
        try (InputStream in = EdfFormatTest.class.getResourceAsStream("appendix-b.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void appendixBReadsAsTheThesisPrintsIt() {
        Edf edf = EdfFormat.read(appendixB());
        assertEquals("2.8E9", edf.parameters().get("CPU_SPEED"));
        assertEquals("greedyFill", edf.parameters().get("OPTIMIZER"));
        assertEquals(14, edf.parameters().size());
        assertEquals(List.of("host0001", "host0002"), edf.pms().stream().map(Edf.Pm::id).toList());
        assertEquals(List.of("vm0001", "vm0002"), List.copyOf(edf.pms().get(0).vms().keySet()));
        assertEquals("vm0002", edf.pms().get(0).vms().get("vm0001").parameters().get("destinationAddresses"));
        assertEquals("34467", edf.pms().get(0).vms().get("vm0002").parameters().get("responseMax"));
        assertEquals("", edf.pms().get(1).vms().get("vm0003").parameters().get("nextTierAddresses"));
        assertEquals(3, edf.switches().size());
        assertFalse(edf.switches().get(0).software());
        assertTrue(edf.switches().get(1).software());
        assertEquals(10, edf.links().size());
        Edf.Link uplink = edf.links().get(2);
        assertEquals("00:00:00:00:00:00:00:01:2->01:00:00:00:00:00:00:02:1", uplink.id());
        assertEquals(2, uplink.sourcePort());
        assertEquals(1, uplink.destinationPort());
        assertEquals("100000000", uplink.parameters().get("LINK_SPEED"));
        assertEquals(4, edf.routes().size());
        assertEquals(4, edf.routes().get(2).linkIds().size());
        assertEquals("vm0003", edf.routes().get(2).destinationId());
    }

    @Test
    void appendixBWritesBackEquivalent() {
        String original = appendixB();
        Edf edf = EdfFormat.read(original);
        String written = EdfFormat.write(edf);
        assertEquals(Json.parse(original), Json.parse(written), "the same members and values");
        assertEquals(edf, EdfFormat.read(written));
        assertEquals(written, EdfFormat.write(EdfFormat.read(written)), "writing is stable");
        // members keep the thesis's order, and scalars stay strings
        assertTrue(written.indexOf("\"parameters\"") < written.indexOf("\"pms\""));
        assertTrue(written.contains("\"CPU_COUNT\": \"2\""), written);
        assertTrue(written.contains("\"sourcePort\": 2"), written);
        assertTrue(written.contains("\"software\": true"), written);
    }

    @Test
    void malformedJsonIsRefusedWithWhereItBreaks() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> EdfFormat.read("{\n  \"parameters\": {\n  \"pms\": [}\n"));
        assertEquals(1, e.problems().size());
        assertEquals("$", e.problems().get(0).path());
        assertTrue(e.problems().get(0).message().contains("line 3"), e.problems().get(0).message());
        assertEquals("$", problems("[1, 2]").get(0).path());
        assertEquals(List.of(new Problem("$", "not an object: [1, 2]")), problems("[1, 2]"));
    }

    @Test
    void wrongTypesAreRefusedAtTheirPaths() {
        List<Problem> problems = problems(edf -> {
            switchAt(edf, 0).put("software", "false");
            linkAt(edf, 2).put("sourcePort", "2");
            linkAt(edf, 3).put("destinationPort", -1L);
            ((Map<String, Object>) edf.get("parameters")).put("CPU_COUNT", 2L);
            vmAt(edf, 0, "vm0002").put("parameters", List.of());
            routeAt(edf, 1).put("linkIds", "x");
            linkAt(edf, 4).put("id", null);
        });
        assertEquals(List.of(
                "$.parameters.CPU_COUNT",
                "$.pms[0].vms.vm0002.parameters",
                "$.switches[0].software",
                "$.links[2].sourcePort",
                "$.links[3].destinationPort",
                "$.links[4].id",
                "$.routes[1].linkIds"), paths(problems));
        assertTrue(problems.get(2).message().contains("not true or false"), problems.get(2).message());
        assertTrue(problems.get(5).message().contains("null"), problems.get(5).message());
    }

    @Test
    void missingAndUnknownMembersAreRefused() {
        List<Problem> problems = problems(edf -> {
            edf.remove("routes");
            linkAt(edf, 0).remove("parameters");
            pmAt(edf, 1).put("cpus", "4");
        });
        assertEquals(List.of("$.routes", "$.pms[1].cpus", "$.links[0].parameters"), paths(problems));
        assertEquals("missing", problems.get(0).message());
        assertTrue(problems.get(1).message().startsWith("unknown member"), problems.get(1).message());
    }

    @Test
    void unknownVmsInRoutesAreRefused() {
        List<Problem> problems = problems(edf -> {
            routeAt(edf, 0).put("sourceId", "vm0009");
            routeAt(edf, 3).put("destinationId", "vm0042");
        });
        assertEquals(List.of(new Problem("$.routes[0].sourceId", "unknown VM vm0009"),
                new Problem("$.routes[3].destinationId", "unknown VM vm0042")), problems);
    }

    @Test
    void aPmOverCapacityIsRefused() {
        List<Problem> problems = problems(edf -> {
            Map<String, Object> vms = (Map<String, Object>) pmAt(edf, 1).get("vms");
            for (String id : List.of("vm0004", "vm0005", "vm0006", "vm0007")) {
                vms.put(id, new LinkedHashMap<>(Map.of("id", id, "parameters", Map.of())));
                addVmLinks(edf, id, "01:00:00:00:00:00:00:02");
            }
        });
        assertEquals(List.of(new Problem("$.pms[1].vms", "over capacity: 5 VMs, at most 4 per PM")), problems);
        assertEquals(List.of(), problems(edf -> {
            Map<String, Object> vms = (Map<String, Object>) pmAt(edf, 1).get("vms");
            for (String id : List.of("vm0004", "vm0005", "vm0006")) {
                vms.put(id, new LinkedHashMap<>(Map.of("id", id, "parameters", Map.of())));
                addVmLinks(edf, id, "01:00:00:00:00:00:00:02");
            }
        }), "four fit");
    }

    @Test
    void aVmOnTwoPmsIsRefused() {
        List<Problem> problems = problems(edf -> ((Map<String, Object>) pmAt(edf, 0).get("vms"))
                .put("vm0003", new LinkedHashMap<>(Map.of("id", "vm0003", "parameters", Map.of()))));
        assertEquals(new Problem("$.pms[1].vms.vm0003", "VM vm0003 is on host0001 too"), problems.get(0));
    }

    @Test
    void aRouteThroughALinkThatDoesNotExistIsRefused() {
        List<Problem> problems = problems(edf -> ((List<Object>) routeAt(edf, 2).get("linkIds"))
                .set(2, "00:00:00:00:00:00:00:01:3->01:00:00:00:00:00:00:02:1"));
        assertEquals(List.of(new Problem("$.routes[2].linkIds[2]",
                "no link 00:00:00:00:00:00:00:01:3->01:00:00:00:00:00:00:02:1")), problems);
    }

    @Test
    void aRouteMustBeAPathFromItsSourceToItsDestinationWithoutCycles() {
        assertEquals(List.of("$.routes[0].linkIds[1]"), paths(problems(edf ->
                ((List<Object>) routeAt(edf, 0).get("linkIds")).set(1, "01:00:00:00:00:00:00:01:0->vm0001:0"))));
        List<Problem> cycle = problems(edf -> {
            List<Object> links = (List<Object>) routeAt(edf, 2).get("linkIds");
            links.add(1, "01:00:00:00:00:00:00:01:0->vm0002:0");
            links.add(2, "vm0002:0->01:00:00:00:00:00:00:01:0");
        });
        assertEquals(List.of("$.routes[2].linkIds[1]"), paths(cycle));
        assertTrue(cycle.get(0).message().contains("cycle"), cycle.get(0).message());
        List<Problem> end = problems(edf -> ((List<Object>) routeAt(edf, 1).get("linkIds")).remove(1));
        assertEquals(List.of(new Problem("$.routes[1].linkIds",
                "ends at 01:00:00:00:00:00:00:01, not at vm0001")), end);
    }

    @Test
    void linksMustJoinKnownNodesUnderTheirOwnIds() {
        List<Problem> problems = problems(edf -> {
            linkAt(edf, 0).put("id", "wrong");
            linkAt(edf, 1).put("sourceId", "99:00:00:00:00:00:00:01");
            linkAt(edf, 1).put("id", "99:00:00:00:00:00:00:01:1->00:00:00:00:00:00:00:01:1");
        });
        assertEquals(List.of("$.links[0].id", "$.links[1].sourceId", "$.pms[1]", "$.routes[2].linkIds[1]",
                "$.routes[3].linkIds[2]"), paths(problems));
    }

    @Test
    void aVmLinkMustReachItsOwnPmsSwitch() {
        List<Problem> problems = problems(edf -> {
            Map<String, Object> link = linkAt(edf, 8); // vm0003 up to 01:..:02
            link.put("destinationId", "01:00:00:00:00:00:00:01");
            link.put("id", "vm0003:0->01:00:00:00:00:00:00:01:0");
        });
        assertEquals("$.links[8].destinationId", problems.get(0).path());
        assertTrue(problems.get(0).message().contains("host0002"), problems.get(0).message());
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        List<Problem> problems = problems(edf -> {
            switchAt(edf, 1).put("software", 1L);
            routeAt(edf, 0).put("sourceId", 7L);
            edf.put("extra", "x");
        });
        assertEquals(List.of("$.extra", "$.switches[1].software", "$.routes[0].sourceId"), paths(problems));
    }

    // helpers: a mutable copy of Appendix B, changed and read back

    static List<Problem> problems(Consumer<Map<String, Object>> change) {
        Map<String, Object> edf = (Map<String, Object>) Json.parse(appendixB());
        change.accept(edf);
        return problems(Json.pretty(edf));
    }

    static List<Problem> problems(String text) {
        try {
            EdfFormat.read(text);
            return List.of();
        } catch (InvalidInputException e) {
            return e.problems();
        }
    }

    static List<String> paths(List<Problem> problems) {
        List<String> paths = new ArrayList<>();
        for (Problem problem : problems) {
            paths.add(problem.path());
        }
        return paths;
    }

    static Map<String, Object> pmAt(Map<String, Object> edf, int i) {
        return (Map<String, Object>) ((List<Object>) edf.get("pms")).get(i);
    }

    static Map<String, Object> vmAt(Map<String, Object> edf, int pm, String vm) {
        return (Map<String, Object>) ((Map<String, Object>) pmAt(edf, pm).get("vms")).get(vm);
    }

    static Map<String, Object> switchAt(Map<String, Object> edf, int i) {
        return (Map<String, Object>) ((List<Object>) edf.get("switches")).get(i);
    }

    static Map<String, Object> linkAt(Map<String, Object> edf, int i) {
        return (Map<String, Object>) ((List<Object>) edf.get("links")).get(i);
    }

    static Map<String, Object> routeAt(Map<String, Object> edf, int i) {
        return (Map<String, Object>) ((List<Object>) edf.get("routes")).get(i);
    }

    static void addVmLinks(Map<String, Object> edf, String vm, String sw) {
        List<Object> links = (List<Object>) edf.get("links");
        links.add(new LinkedHashMap<>(Map.of("destinationId", sw, "destinationPort", 0L,
                "id", vm + ":0->" + sw + ":0", "parameters", Map.of(), "sourceId", vm, "sourcePort", 0L)));
        links.add(new LinkedHashMap<>(Map.of("destinationId", vm, "destinationPort", 0L,
                "id", sw + ":0->" + vm + ":0", "parameters", Map.of(), "sourceId", sw, "sourcePort", 0L)));
    }
}
