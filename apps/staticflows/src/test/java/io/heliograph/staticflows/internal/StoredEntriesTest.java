package io.heliograph.staticflows.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.cluster.SharedStore.Versioned;
import io.heliograph.core.testing.InMemorySharedStore;
import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.GroupEntry.Bucket;
import io.heliograph.staticflows.StaticEntry;

class StoredEntriesTest {

    private static final DatapathId DPID = DatapathId.of(1);

    private final InMemorySharedStore shared = new InMemorySharedStore();
    private final EntryStore store = new EntryStore(shared);
    private final StoredEntries mirror = new StoredEntries(store);

    private static FlowEntry flow(String name, int port) {
        return FlowEntry.builder(DPID, name).priority(100).match("in_port", "1").apply(Action.output(port)).build();
    }

    private static Versioned value(StaticEntry entry, long version) {
        return new Versioned(EntryStore.key(entry.dpid(), entry.name()), EntryStore.encode(entry), version);
    }

    @Test
    void aChangeIsMirroredOnceAndSaysWhatItReplaced() {
        mirror.load(Map.of(), Map.of());
        FlowEntry first = flow("web", 2);
        StoredEntries.Change added = mirror.changed(value(first, 1));
        assertNull(added.previous());
        assertEquals(first, added.now().entry());
        assertTrue(added.complete());

        assertNull(mirror.changed(value(first, 1)), "the same value told twice changes nothing");

        FlowEntry second = flow("web", 3);
        StoredEntries.Change replaced = mirror.changed(value(second, 2));
        assertEquals(first, replaced.previous().entry());
        assertEquals(second, replaced.now().entry());
        assertTrue(mirror.isCurrent(second));
        assertFalse(mirror.isCurrent(first));
    }

    @Test
    void aValueThatIsNotAnEntryLeavesTheMirrorAsItWas() {
        mirror.load(Map.of(), Map.of());
        FlowEntry web = flow("web", 2);
        mirror.changed(value(web, 1));
        assertNull(mirror.changed(new Versioned(EntryStore.key(DPID, "web"), "{not json".getBytes(UTF_8), 2)));
        assertEquals(Map.of("web", web), mirror.of(DPID));
    }

    @Test
    void beforeTheStartReadChangesAreMirroredButNotCompleteAndARemovalIsNotBroughtBackByTheRead() {
        FlowEntry web = flow("web", 2);
        FlowEntry ssh = flow("ssh", 3);
        StoredEntries.Change early = mirror.changed(value(web, 1));
        assertFalse(early.complete(), "not applied: the start reconciles once the mirror is complete");
        StoredEntries.Removal removal = mirror.removed(EntryStore.key(DPID, "ssh"));
        assertNull(removal.previous());
        assertFalse(removal.complete());

        // The start's read was taken before the removal reached the watch.
        mirror.load(Map.of(EntryStore.key(DPID, "web"), value(web, 1), EntryStore.key(DPID, "ssh"), value(ssh, 1)), Map.of());

        assertTrue(mirror.isComplete());
        assertEquals(Map.of("web", web), mirror.of(DPID));
    }

    @Test
    void aRemovalTakesTheEntryOutAndReturnsIt() {
        mirror.load(Map.of(), Map.of());
        FlowEntry web = flow("web", 2);
        mirror.changed(value(web, 1));
        StoredEntries.Removal removal = mirror.removed(EntryStore.key(DPID, "web"));
        assertEquals(web, removal.previous().entry());
        assertTrue(removal.complete());
        assertNull(mirror.get(DPID, "web"));
        assertNull(mirror.removed(EntryStore.key(DPID, "web")).previous(), "gone already");
    }

    @Test
    void aStoppedMirrorStillFollowsButIsNoLongerComplete() {
        mirror.load(Map.of(), Map.of());
        mirror.stop();
        assertFalse(mirror.isComplete());
        StoredEntries.Change change = mirror.changed(value(flow("web", 2), 1));
        assertNotNull(change);
        assertFalse(change.complete());
    }

    @Test
    void deletingAGroupAFlowUsesIsRefusedAndAnUnknownNameIsNotFound() {
        mirror.load(Map.of(), Map.of());
        GroupEntry group = new GroupEntry(DPID, "g5", 5, GroupEntry.Type.ALL, List.of(Bucket.of(Action.output(1))));
        FlowEntry via = FlowEntry.builder(DPID, "via").priority(10).match("in_port", "1").apply(new Action.Group(5)).build();
        mirror.changed(value(group, 1));
        mirror.changed(value(via, 1));

        assertNull(mirror.deletionProblems(DPID, "nothing"));
        assertEquals(List.of("flow 'via' uses group 5; change or delete it first"), mirror.deletionProblems(DPID, "g5"));
        assertEquals(List.of(), mirror.deletionProblems(DPID, "via"));
    }

    @Test
    void aSecondGroupWithTheSameIdIsAProblem() {
        mirror.load(Map.of(), Map.of());
        mirror.changed(value(new GroupEntry(DPID, "g5", 5, GroupEntry.Type.ALL, List.of()), 1));
        List<String> problems = mirror.problems(new GroupEntry(DPID, "twin", 5, GroupEntry.Type.ALL, List.of()), SwitchView.of(null));
        assertTrue(problems.contains("group_id 5 is already defined by group 'g5' on this switch"), problems.toString());
        assertEquals(List.of(), mirror.problems(new GroupEntry(DPID, "g5", 5, GroupEntry.Type.ALL, List.of()),
                SwitchView.of(null)), "replacing the group itself");
    }

    @Test
    void ownedIdsOnlyMoveToANewerVersionAndAreWrittenThroughToTheStore() {
        mirror.load(Map.of(), Map.of());
        mirror.updateOwned(DPID, ids -> ids.groups().add(5L));
        assertEquals(new TreeSet<>(List.of(5L)), mirror.owned(DPID).groups());
        Versioned current = shared.get(EntryStore.installedKey(DPID)).orElseThrow();
        assertEquals(new TreeSet<>(List.of(5L)), EntryStore.decodeOwned(current.value()).groups(), "the store has it too");

        OwnedIds stale = new OwnedIds();
        stale.groups().add(9L);
        mirror.rememberOwned(new Versioned(current.key(), EntryStore.encode(stale), current.version() - 1));
        assertEquals(new TreeSet<>(List.of(5L)), mirror.owned(DPID).groups(), "an older value told late is ignored");

        OwnedIds copy = mirror.owned(DPID);
        copy.groups().add(7L);
        assertFalse(mirror.owned(DPID).groups().contains(7L), "callers get a copy");

        mirror.forgetOwned(current.key());
        assertTrue(mirror.owned(DPID).isEmpty());
    }

    @Test
    void theViewIsACopy() {
        mirror.load(Map.of(), Map.of());
        FlowEntry web = flow("web", 2);
        mirror.changed(value(web, 1));
        Map<DatapathId, Map<String, StoredEntries.Stored>> view = mirror.view();
        view.get(DPID).clear();
        assertEquals(web, mirror.get(DPID, "web").entry());
    }
}
