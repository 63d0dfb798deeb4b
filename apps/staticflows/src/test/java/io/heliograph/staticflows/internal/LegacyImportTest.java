package io.heliograph.staticflows.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.core.json.Json;
import io.heliograph.core.testing.InMemorySharedStore;
import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.StaticEntry;

class LegacyImportTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-22T08:00:00Z"), ZoneOffset.UTC);
    private static final DatapathId DPID = DatapathId.of(1);

    @TempDir
    Path dir;

    private final InMemorySharedStore store = new InMemorySharedStore();
    private final EntryStore entries = new EntryStore(store);

    /** An entry file as the controller wrote it before the cluster (EntryFile's format 1). */
    static String document(StaticEntry... entries) {
        return document(List.of(entries), Map.of());
    }

    static String document(List<StaticEntry> entries, Map<DatapathId, OwnedIds> owned) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", 1L);
        List<Object> list = new ArrayList<>();
        entries.forEach(e -> list.add(EntryCodec.toJson(e)));
        root.put("entries", list);
        Map<String, Object> installed = new LinkedHashMap<>();
        owned.forEach((dpid, ids) -> installed.put(dpid.toString(),
                Map.of("groups", new ArrayList<Object>(ids.groups()), "meters", new ArrayList<Object>(ids.meters()))));
        root.put("installed", installed);
        return Json.pretty(root);
    }

    private static FlowEntry flow(String name, int port) {
        return FlowEntry.builder(DPID, name).priority(10).match("in_port", "1").apply(Action.output(port)).build();
    }

    private static GroupEntry group(long id) {
        return new GroupEntry(DPID, "g" + id, id, GroupEntry.Type.ALL, List.of(GroupEntry.Bucket.of(Action.output(2))));
    }

    private EntryFile file(String text) throws IOException {
        Files.writeString(dir.resolve(EntryFile.FILE_NAME), text);
        return new EntryFile(dir, CLOCK);
    }

    private String storedText(StaticEntry e) {
        return store.get(EntryStore.key(e.dpid(), e.name())).map(v -> new String(v.value(), UTF_8)).orElse(null);
    }

    @Test
    void aFileMeetingAnEmptyStoreIsImportedOnceAndMovedAside() throws IOException {
        OwnedIds owned = new OwnedIds(new TreeSet<>(Set.of(5L, 9L)), new TreeSet<>());
        EntryFile legacy = file(document(List.of(flow("a", 2), group(5)), Map.of(DPID, owned)));

        LegacyImport.Outcome outcome = LegacyImport.run(legacy, entries);

        assertEquals(2, outcome.imported());
        assertEquals(List.of(), outcome.problems());
        assertEquals(new String(EntryStore.encode(flow("a", 2)), UTF_8), storedText(flow("a", 2)));
        assertEquals(new String(EntryStore.encode(group(5)), UTF_8), storedText(group(5)));
        assertEquals(owned, EntryStore.decodeOwned(store.get(EntryStore.installedKey(DPID)).orElseThrow().value()),
                "the ids the old controller put on the switch, so stale ones are still cleaned up");
        Path aside = dir.resolve("entries.json.imported-20261122T080000.000Z");
        assertEquals(aside.toString(), outcome.movedTo());
        assertTrue(Files.exists(aside));
        assertFalse(legacy.exists(), "not the source of truth any more");

        assertEquals(new LegacyImport.Outcome(0, List.of(), null), LegacyImport.run(legacy, entries), "once");
    }

    @Test
    void aFileMeetingAStoreWithOtherEntriesIsNotImported() throws IOException {
        entries.put(flow("cluster", 3));
        EntryFile legacy = file(document(flow("a", 2)));

        LegacyImport.Outcome outcome = LegacyImport.run(legacy, entries);

        assertEquals(0, outcome.imported());
        assertEquals(Set.of("00:00:00:00:00:00:00:01@cluster"), store.list(EntryStore.ENTRIES).keySet());
        assertTrue(outcome.movedTo().contains("entries.json.not-imported-"), outcome.movedTo());
        assertFalse(legacy.exists());
    }

    @Test
    void anImportCutShortIsFinishedByTheNextStart() throws IOException {
        entries.put(flow("a", 2)); // the first attempt got this far
        EntryFile legacy = file(document(flow("a", 2), flow("b", 3)));

        LegacyImport.Outcome outcome = LegacyImport.run(legacy, entries);

        assertEquals(1, outcome.imported());
        assertEquals(Set.of("00:00:00:00:00:00:00:01@a", "00:00:00:00:00:00:00:01@b"), store.list(EntryStore.ENTRIES).keySet());
        assertEquals(0, store.get(EntryStore.key(DPID, "a")).orElseThrow().version(), "the entry already there is left alone");
    }

    @Test
    void withoutTheStoreNothingIsImportedAndTheFileStaysForTheNextStart() throws IOException {
        EntryFile legacy = file(document(flow("a", 2)));
        store.setAvailable(false);

        assertThrows(StoreUnavailableException.class, () -> LegacyImport.run(legacy, entries));

        assertTrue(legacy.exists());
        store.setAvailable(true);
        assertEquals(Map.of(), store.list(EntryStore.ENTRIES));
        assertEquals(1, LegacyImport.run(legacy, entries).imported());
    }

    @Test
    void aCorruptFileIsReportedAndKeptAsideNotSilentlyDropped() throws IOException {
        EntryFile legacy = file("not json at all");

        LegacyImport.Outcome outcome = LegacyImport.run(legacy, entries);

        assertEquals(1, outcome.problems().size(), outcome.problems().toString());
        assertTrue(outcome.problems().get(0).contains("is corrupt")
                && outcome.problems().get(0).contains("entries.json.corrupt-"), outcome.problems().toString());
        assertEquals(Map.of(), store.list(EntryStore.ENTRIES));
        assertFalse(legacy.exists());
    }

    @Test
    void anInvalidEntryIsReportedByNameAndTheOthersAreImported() throws IOException {
        EntryFile legacy = file("{\"entries\": ["
                + "{\"switch\": \"00:00:00:00:00:00:00:01\", \"name\": \"ok\", \"priority\": 5},"
                + "{\"switch\": \"00:00:00:00:00:00:00:01\", \"name\": \"noprereq\", \"tcp_dst\": \"80\"},"
                + "{\"switch\": \"00:00:00:00:00:00:00:01\", \"name\": \"ok\", \"priority\": 6}]}");

        LegacyImport.Outcome outcome = LegacyImport.run(legacy, entries);

        assertEquals(1, outcome.imported());
        assertEquals(Set.of("00:00:00:00:00:00:00:01@ok"), store.list(EntryStore.ENTRIES).keySet());
        assertTrue(storedText(FlowEntry.builder(DPID, "ok").build()).contains("\"priority\": 5"), "the first of two namesakes");
        assertEquals(2, outcome.problems().size(), outcome.problems().toString());
        assertTrue(outcome.problems().stream().anyMatch(p -> p.contains("'noprereq'") && p.contains("tcp_dst")),
                outcome.problems().toString());
        assertTrue(outcome.problems().stream().anyMatch(p -> p.contains("'ok'") && p.contains("second entry")),
                outcome.problems().toString());
        assertTrue(Files.exists(Path.of(outcome.movedTo())), "the whole file is kept for the operator");
    }
}
