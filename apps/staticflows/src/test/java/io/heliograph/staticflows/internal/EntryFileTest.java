package io.heliograph.staticflows.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.json.Json;
import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.FlowFlag;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.GroupEntry.Bucket;
import io.heliograph.staticflows.Metadata;
import io.heliograph.staticflows.MeterEntry;
import io.heliograph.staticflows.MeterEntry.Band;
import io.heliograph.staticflows.StaticEntry;

class EntryFileTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-21T17:00:00Z"), ZoneOffset.UTC);
    private static final DatapathId A = DatapathId.of(1);
    private static final DatapathId B = DatapathId.of("00:00:00:00:00:00:ab:cd");

    @TempDir
    Path dir;

    static List<StaticEntry> sample() {
        return List.of(
                FlowEntry.builder(A, "web").table(1).priority(100).idleTimeout(30).hardTimeout(600).cookie(0x2a)
                        .match("eth_type", "0x0800").match("ip_proto", "6").match("tcp_dst", "80")
                        .apply(Action.setField("eth_dst", "00:00:00:00:00:02"), Action.output(2),
                                Action.output(OFPort.CONTROLLER))
                        .write(new Action.Group(5)).clearActions(true).meter(3L).writeMetadata(new Metadata(0x10, 0xff))
                        .gotoTable(2).flag(FlowFlag.SEND_FLOW_REM).build(),
                FlowEntry.builder(B, "drop \"all\"").priority(0).build(),
                new GroupEntry(A, "lb", 5, GroupEntry.Type.SELECT,
                        List.of(Bucket.weighted(1, Action.output(1)), Bucket.weighted(3, new Action.PushVlan(0x8100),
                                Action.setField("eth_vlan_vid", "7"), Action.output(2)))),
                new GroupEntry(A, "ff", 6, GroupEntry.Type.FAST_FAILOVER,
                        List.of(new Bucket(0, OFPort.of(1), null, List.of(Action.output(1))),
                                new Bucket(0, null, 5L, List.of(new Action.Group(5))))),
                new MeterEntry(A, "limit", 3, Set.of(MeterEntry.Flag.KBPS, MeterEntry.Flag.BURST),
                        List.of(Band.drop(10_000, 500), Band.dscpRemark(5_000, 0, 2))));
    }

    @Test
    void entriesAndOwnedIdsAsThePreviousVersionWroteThemAreRead() throws IOException {
        OwnedIds owned = new OwnedIds(new TreeSet<>(Set.of(5L, 6L)), new TreeSet<>(Set.of(3L)));
        Files.createDirectories(dir.resolve("staticflows"));
        Files.writeString(dir.resolve("staticflows/entries.json"), LegacyImportTest.document(sample(), Map.of(A, owned)));

        EntryFile.Contents read = new EntryFile(dir.resolve("staticflows"), CLOCK).load();
        assertEquals(List.of(), read.problems());
        assertEquals(sample(), read.entries());
        assertEquals(Map.of(A, owned), read.owned());
    }

    @Test
    void storedEntriesUseFloodlightsNames() {
        StringBuilder all = new StringBuilder();
        sample().forEach(e -> all.append(new String(EntryStore.encode(e), StandardCharsets.UTF_8)));
        String text = all.toString();
        for (String name : List.of("\"switch\": \"00:00:00:00:00:00:00:01\"", "\"entry_type\": \"flow\"",
                "\"eth_type\": \"0x0800\"", "\"tcp_dst\": \"80\"", "\"instruction_apply_actions\": \"set_field=eth_dst->00:00:00:00:00:02,output=2,output=controller\"",
                "\"instruction_goto_table\": 2", "\"group_type\": \"select\"", "\"bucket_weight\": 3",
                "\"bucket_watch_port\": \"1\"", "\"meter_bands\"")) {
            assertTrue(text.contains(name), name + " in\n" + text);
        }
    }

    @Test
    void aFloodlightDocumentIsRead() throws IOException {
        // As posted to Floodlight's /wm/staticflowpusher/json: flat match fields, numbers as text.
        Files.writeString(dir.resolve("entries.json"), "{\"entries\": [{\"switch\": \"00:00:00:00:00:00:00:01\", "
                + "\"name\": \"flow-mod-1\", \"cookie\": \"0\", \"priority\": \"32768\", \"in_port\": \"1\", "
                + "\"active\": \"true\", \"actions\": \"output=2\"}]}");
        EntryFile.Contents read = new EntryFile(dir, CLOCK).load();
        assertEquals(List.of(), read.problems());
        assertEquals(List.of(FlowEntry.builder(A, "flow-mod-1").match("in_port", "1").apply(Action.output(2)).build()),
                read.entries());
    }

    @Test
    void aNumberBeyondAnIntIsRefusedNotCut() {
        // 4294967396 is 2^32 + 100: cut to 32 bits it would read as priority 100.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EntryCodec.fromJson(Map.of(
                "switch", "00:00:00:00:00:00:00:01", "name", "big", "priority", "4294967396", "actions", "output=2")));
        assertEquals("'priority' is out of range: 4294967396", e.getMessage());
    }

    @Test
    void aMissingFileIsAnEmptyStore() {
        EntryFile.Contents read = new EntryFile(dir.resolve("nothing-here"), CLOCK).load();
        assertEquals(List.of(), read.entries());
        assertEquals(List.of(), read.problems());
    }

    @Test
    void aCorruptFileIsReportedAndMovedAside() throws IOException {
        Path file = dir.resolve("entries.json");
        Files.writeString(file, "{\"entries\": [ {\"switch\": \"00:00:00:00:00:00:00:01\", \"name\": \"x\"");
        EntryFile.Contents read = new EntryFile(dir, CLOCK).load();
        assertEquals(List.of(), read.entries());
        assertEquals(1, read.problems().size(), read.problems().toString());
        String problem = read.problems().get(0);
        assertTrue(problem.contains("is corrupt") && problem.contains("line 1"), problem);
        Path aside = dir.resolve("entries.json.corrupt-20261121T170000.000Z");
        assertTrue(problem.contains(aside.toString()), problem);
        assertFalse(Files.exists(file), "moved aside, so it is not read again and the evidence is kept");
        assertTrue(Files.readString(aside).startsWith("{\"entries\": [ {"), "kept byte for byte");
    }

    @Test
    void notUtf8IsCorruptToo() throws IOException {
        Files.write(dir.resolve("entries.json"), new byte[] {'{', (byte) 0xff, (byte) 0xfe, '}'});
        EntryFile.Contents read = new EntryFile(dir, CLOCK).load();
        assertTrue(read.problems().get(0).contains("not UTF-8"), read.problems().toString());
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(1, files.filter(p -> p.getFileName().toString().startsWith("entries.json.corrupt-")).count());
        }
    }

    @Test
    void aBadEntryIsReportedByNameAndTheOthersAreKept() throws IOException {
        Files.writeString(dir.resolve("entries.json"), "{\"entries\": ["
                + "{\"switch\": \"00:00:00:00:00:00:00:01\", \"name\": \"good\", \"priority\": 5},"
                + "{\"switch\": \"nonsense\", \"name\": \"bad\"},"
                + "{\"switch\": \"00:00:00:00:00:00:00:01\", \"name\": \"worse\", \"entry_type\": \"wormhole\"}]}");
        EntryFile.Contents read = new EntryFile(dir, CLOCK).load();
        assertEquals(List.of(FlowEntry.builder(A, "good").priority(5).build()), read.entries());
        assertEquals(2, read.problems().size(), read.problems().toString());
        assertTrue(read.problems().get(0).contains("entry 1 ('bad')") && read.problems().get(0).contains("datapath id"));
        assertTrue(read.problems().get(1).contains("entry 2 ('worse')") && read.problems().get(1).contains("wormhole"));
    }

    @Test
    void jsonStringsWithQuotesAndControlCharactersRoundTrip() {
        Object doc = Map.of("k", "a \"quoted\"\\ line\nand\ttab \u0001");
        assertEquals(doc, Json.parse(Json.pretty(doc)));
    }
}
