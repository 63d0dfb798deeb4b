package io.heliograph.core.cluster;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import io.heliograph.core.cluster.SharedStore.StoreListener;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.core.cluster.SharedStore.Versioned;
import io.heliograph.core.testing.InMemorySharedStore;

/**
 * What the test store does beyond SharedStore's contract (InMemorySharedStoreContractTest runs that): synchronous
 * delivery, instances whose sessions the test takes away, a leadership the test moves, its exact messages.
 */
class InMemorySharedStoreTest {

    private final InMemorySharedStore store = new InMemorySharedStore();






    @Test
    void theEmptyPrefixIsTheWholeStore() {
        store.put("top", bytes("t"));
        store.put("a/b", bytes("b"));
        Recorder recorder = new Recorder();

        store.watch("", recorder);

        assertEquals(List.of("top"), List.copyOf(store.list("").keySet()));
        assertEquals(List.of("changed a/b@0=b", "changed top@0=t"), recorder.events);
    }

    @Test
    void aWatchHearsItsPrefixKeyToo() {
        store.put("w", bytes("itself"));
        Recorder recorder = new Recorder();

        store.watch("w", recorder);
        store.delete("w");

        assertEquals(List.of("changed w@0=itself", "removed w"), recorder.events);
    }


    @Test
    void deleteTakesEverythingBelowAndTellsChildrenFirst() {
        store.put("a/b", bytes("b"));
        store.put("a/b/c", bytes("c"));
        store.put("a/b/c/d", bytes("d"));
        store.put("a/bb", bytes("bb"));
        Recorder recorder = new Recorder();
        store.watch("a", recorder);
        recorder.events.clear();

        assertTrue(store.delete("a/b"));

        assertEquals(List.of("removed a/b/c/d", "removed a/b/c", "removed a/b"), recorder.events);
        assertEquals(Optional.empty(), store.get("a/b/c/d"));
        assertEquals("bb", text(store.get("a/bb").orElseThrow()));
        assertFalse(store.delete("a/b"));
        assertFalse(store.delete("nothing/here"));
    }



    @Test
    void aWatchGetsTheExistingValuesThenEveryChangeInOrder() {
        store.put("w/one", bytes("1"));
        store.put("w/two", bytes("2"));
        store.put("other/x", bytes("x"));
        store.put("w0", bytes("not below w"));
        Recorder recorder = new Recorder();

        SharedStore.Watch watch = store.watch("w", recorder);
        assertEquals(List.of("changed w/one@0=1", "changed w/two@0=2"), recorder.events);

        store.put("w/one", bytes("1b"));
        store.delete("w/two");
        store.put("w/three/deep", bytes("3"));
        store.put("other/y", bytes("y"));
        assertEquals(List.of("changed w/one@0=1", "changed w/two@0=2", "changed w/one@1=1b", "removed w/two",
                "changed w/three/deep@0=3"), recorder.events);

        watch.close();
        store.put("w/one", bytes("after close"));
        assertEquals(5, recorder.events.size(), recorder.events.toString());
    }

    @Test
    void aWriteFromInsideAListenerIsDeliveredAfterItNotInsideIt() {
        List<String> events = new ArrayList<>();
        store.watch("w", new StoreListener() {
            @Override
            public void changed(Versioned value) {
                events.add("begin " + value.key());
                if (value.key().equals("w/first")) {
                    store.put("w/second", bytes("2"));
                }
                events.add("end " + value.key());
            }

            @Override
            public void removed(String key) {
            }
        });

        store.put("w/first", bytes("1"));

        assertEquals(List.of("begin w/first", "end w/first", "begin w/second", "end w/second"), events);
    }

    @Test
    void anotherInstanceSeesTheSameDataAndHearsItsChanges() {
        InMemorySharedStore other = store.anotherInstance("instance-2");
        Recorder recorder = new Recorder();
        other.watch("w", recorder);

        store.put("w/k", bytes("from one"));

        assertEquals("from one", text(other.get("w/k").orElseThrow()));
        assertEquals(List.of("changed w/k@0=from one"), recorder.events);
    }

    @Test
    void anUnavailableStoreRefusesEverythingAndChangesNothing() {
        store.put("k", bytes("before"));
        store.setAvailable(false);

        List<Executable> calls = List.of(
                () -> store.get("k"),
                () -> store.put("k", bytes("x")),
                () -> store.replace("k", 0, bytes("x")),
                () -> store.update("k", old -> bytes("x")),
                () -> store.delete("k"),
                () -> store.list("k"),
                () -> store.watch("k", new Recorder()),
                () -> store.lead("job", leader -> { }));
        for (Executable call : calls) {
            StoreUnavailableException e = assertThrows(StoreUnavailableException.class, call);
            assertTrue(e.getMessage().contains("instance-1"), e.getMessage());
        }

        store.setAvailable(true);
        Versioned k = store.get("k").orElseThrow();
        assertEquals("before", text(k));
        assertEquals(0, k.version());
    }

    @Test
    void anUpdateWhoseSessionIsLostMeanwhileWritesNothing() {
        store.put("k", bytes("before"));

        assertThrows(StoreUnavailableException.class, () -> store.update("k", old -> {
            store.setAvailable(false);
            return bytes("after");
        }));

        store.setAvailable(true);
        assertEquals("before", text(store.get("k").orElseThrow()));
    }

    @Test
    void aWatchOfAnInstanceWithoutSessionHearsNothingThenWhatItMissed() {
        InMemorySharedStore other = store.anotherInstance("instance-2");
        store.put("w/kept", bytes("same"));
        store.put("w/changed", bytes("old"));
        store.put("w/deleted", bytes("gone soon"));
        Recorder recorder = new Recorder();
        other.watch("w", recorder);
        recorder.events.clear();

        other.setAvailable(false);
        store.put("w/changed", bytes("new"));
        store.delete("w/deleted");
        store.put("w/added", bytes("added"));
        assertEquals(List.of(), recorder.events);

        other.setAvailable(true);
        assertEquals(List.of("removed w/deleted", "changed w/added@0=added", "changed w/changed@1=new"), recorder.events);
    }

    @Test
    void theFirstCandidateLeadsAndTheTestCanMoveTheLeadership() {
        InMemorySharedStore other = store.anotherInstance("instance-2");
        List<String> events = new ArrayList<>();
        store.lead("optimiser", leader -> events.add("instance-1 " + leader));
        other.lead("optimiser", leader -> events.add("instance-2 " + leader));
        assertEquals(List.of("instance-1 true"), events);
        assertTrue(store.isLeader("optimiser"));

        other.makeLeader("optimiser");

        assertEquals(List.of("instance-1 true", "instance-1 false", "instance-2 true"), events);
        assertFalse(store.isLeader("optimiser"));
        assertTrue(other.isLeader("optimiser"));
        IllegalStateException notCompeting = assertThrows(IllegalStateException.class,
                () -> store.anotherInstance("instance-3").makeLeader("optimiser"));
        assertTrue(notCompeting.getMessage().contains("instance-3"), notCompeting.getMessage());
    }

    @Test
    void aLeaderThatLosesItsSessionIsToldBeforeAnotherLeads() {
        InMemorySharedStore other = store.anotherInstance("instance-2");
        List<String> events = new ArrayList<>();
        store.lead("optimiser", leader -> events.add("instance-1 " + leader));
        other.lead("optimiser", leader -> events.add("instance-2 " + leader));

        store.setAvailable(false);
        assertEquals(List.of("instance-1 true", "instance-1 false", "instance-2 true"), events);

        store.setAvailable(true);
        assertEquals(3, events.size(), "a leader is not deposed by the return of another: " + events);
        assertTrue(other.isLeader("optimiser"));
    }

    @Test
    void closingTheLeadershipHandsItToTheNextCandidate() {
        InMemorySharedStore other = store.anotherInstance("instance-2");
        List<String> events = new ArrayList<>();
        SharedStore.Watch first = store.lead("optimiser", leader -> events.add("instance-1 " + leader));
        other.lead("optimiser", leader -> events.add("instance-2 " + leader));

        first.close();

        assertEquals(List.of("instance-1 true", "instance-1 false", "instance-2 true"), events);
        assertTrue(other.isLeader("optimiser"));
    }

    @Test
    void badKeysAreRefusedNamingTheProblem() {
        Map<String, String> problems = Map.of(
                "", "empty",
                "/a", "empty segment",
                "a/", "empty segment",
                "a//b", "empty segment",
                "a/b c", "' '",
                "flows/é", "'é'",
                "x".repeat(201), "201 characters");
        problems.forEach((key, problem) -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.put(key, bytes("v")));
            assertTrue(e.getMessage().contains(problem), key + ": " + e.getMessage());
        });
        assertThrows(IllegalArgumentException.class, () -> store.get(null));
        assertThrows(IllegalArgumentException.class, () -> store.watch("a b", new Recorder()));
        assertThrows(IllegalArgumentException.class, () -> store.lead("a/", leader -> { }));

        store.put("Aa0._-:@/" + "x".repeat(200), bytes("every allowed character"));
    }


    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    private static String text(Versioned v) {
        return new String(v.value(), UTF_8);
    }

    private static final class Recorder implements StoreListener {
        final List<String> events = new ArrayList<>();

        @Override
        public void changed(Versioned value) {
            events.add("changed " + value.key() + "@" + value.version() + "=" + text(value));
        }

        @Override
        public void removed(String key) {
            events.add("removed " + key);
        }
    }
}
