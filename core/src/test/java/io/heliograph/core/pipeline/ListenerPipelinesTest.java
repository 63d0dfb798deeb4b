package io.heliograph.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFBufferId;

import io.heliograph.core.MessageListener;
import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.testing.FakeSwitch;

class ListenerPipelinesTest {

    private static final OFFactory OF13 = OFFactories.getFactory(OFVersion.OF_13);
    private static final OFMessage PACKET_IN = OF13.buildPacketIn().setReason(OFPacketInReason.NO_MATCH)
            .setBufferId(OFBufferId.NO_BUFFER).setData(new byte[0]).build();
    private static final OFMessage ECHO = OF13.echoRequest(new byte[0]);
    private static final OFSwitch SW = new FakeSwitch(0x2a);

    private final List<String> journal = new CopyOnWriteArrayList<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final ListenerPipelines pipelines = new ListenerPipelines((sw, message, listener, failure) ->
            failures.add(listener.getName() + "@" + sw.getId() + ":" + message.getType() + ":" + failure.getMessage()));

    @Test
    void configuredOrderDecidesWhateverTheRegistrationOrder() {
        pipelines.setOrder(OFType.PACKET_IN, List.of("topology", "devices", "forwarding", "learningswitch"));
        pipelines.add(new RecordingListener("learningswitch", journal));
        pipelines.add(new RecordingListener("forwarding", journal));
        pipelines.add(new RecordingListener("topology", journal));
        pipelines.add(new RecordingListener("devices", journal));

        assertEquals(Command.CONTINUE, pipelines.dispatch(SW, PACKET_IN));

        assertEquals(List.of("topology", "devices", "forwarding", "learningswitch"), journal);
        assertEquals(journal, pipelines.names(OFType.PACKET_IN));
    }

    @Test
    void unlistedListenersGoLastInRegistrationOrder() {
        pipelines.setOrder(OFType.PACKET_IN, List.of("a", "b"));
        pipelines.add(new RecordingListener("z", journal));
        pipelines.add(new RecordingListener("b", journal));
        pipelines.add(new RecordingListener("y", journal));
        pipelines.add(new RecordingListener("a", journal));

        pipelines.dispatch(SW, PACKET_IN);

        assertEquals(List.of("a", "b", "z", "y"), journal);
    }

    @Test
    void orderFromConfigurationPropertiesReachesThePipeline() {
        Map<OFType, List<String>> orders = PipelineOrders.parse(
                Map.of("order.PACKET_IN", "second, first", "order.ECHO_REQUEST", "echo2,echo1"), p -> { });
        orders.forEach(pipelines::setOrder);
        pipelines.add(new RecordingListener("first", journal));
        pipelines.add(new RecordingListener("second", journal));
        pipelines.add(new RecordingListener("echo1", Set.of(OFType.ECHO_REQUEST), journal, (s, m) -> Command.CONTINUE));
        pipelines.add(new RecordingListener("echo2", Set.of(OFType.ECHO_REQUEST), journal, (s, m) -> Command.CONTINUE));

        pipelines.dispatch(SW, PACKET_IN);
        pipelines.dispatch(SW, ECHO);

        assertEquals(List.of("second", "first", "echo2", "echo1"), journal);
    }

    @Test
    void stopEndsThePipeline() {
        pipelines.setOrder(OFType.PACKET_IN, List.of("a", "b", "c"));
        pipelines.add(new RecordingListener("a", journal));
        pipelines.add(RecordingListener.stopping("b", journal));
        pipelines.add(new RecordingListener("c", journal));

        assertEquals(Command.STOP, pipelines.dispatch(SW, PACKET_IN));

        assertEquals(List.of("a", "b"), journal);
    }

    @Test
    void prepareGivesTheWholeReadOnceToEveryListenerOfOneOfItsTypesAndAFailureIsReported() {
        pipelines.add(new RecordingListener("a", journal));
        pipelines.add(RecordingListener.failingToPrepare("broken", journal, new IllegalStateException("boom")));
        pipelines.add(RecordingListener.stopping("c", journal));
        pipelines.add(new RecordingListener("echo", Set.of(OFType.ECHO_REQUEST), journal, (s, m) -> Command.CONTINUE));

        pipelines.prepare(SW, List.of(ECHO, PACKET_IN, PACKET_IN));

        assertEquals(List.of("a prepared 3", "broken prepared 3", "c prepared 3", "echo prepared 3"), journal,
                "each once, with all three messages, a STOP in receive notwithstanding");
        assertEquals(List.of("broken@00:00:00:00:00:00:00:2a:PACKET_IN:boom"), failures,
                "reported with its first message of its types");
        assertEquals(Command.STOP, pipelines.dispatch(SW, PACKET_IN), "the failure to prepare does not stop dispatch");

        journal.clear();
        pipelines.prepare(SW, List.of(PACKET_IN));
        assertEquals(List.of("a prepared 1", "broken prepared 1", "c prepared 1"), journal,
                "not the echo listener: the read has no echo request");
    }

    @Test
    void aRemovedListenerNoLongerPrepares() {
        RecordingListener a = new RecordingListener("a", journal);
        pipelines.add(a);
        pipelines.add(new RecordingListener("b", journal));
        pipelines.remove(a);

        pipelines.prepare(SW, List.of(PACKET_IN));

        assertEquals(List.of("b prepared 1"), journal);
    }

    @Test
    void aThrowingListenerIsReportedAndSkipped() {
        pipelines.setOrder(OFType.PACKET_IN, List.of("a", "broken", "c"));
        pipelines.add(new RecordingListener("a", journal));
        pipelines.add(RecordingListener.throwing("broken", journal, new IllegalStateException("boom")));
        pipelines.add(new RecordingListener("c", journal));

        assertEquals(Command.CONTINUE, pipelines.dispatch(SW, PACKET_IN));
        pipelines.dispatch(SW, PACKET_IN);

        assertEquals(List.of("a", "broken", "c", "a", "broken", "c"), journal);
        String expected = "broken@00:00:00:00:00:00:00:2a:PACKET_IN:boom";
        assertEquals(List.of(expected, expected), failures);
    }

    @Test
    void linkageErrorsAndStackOverflowsAreContainedToo() {
        pipelines.add(new RecordingListener("unloaded", Set.of(OFType.PACKET_IN), journal, (s, m) -> {
            throw new NoClassDefFoundError("io/heliograph/gone/Thing");
        }));
        pipelines.add(new RecordingListener("recursive", Set.of(OFType.PACKET_IN), journal, (s, m) -> {
            throw new StackOverflowError("deep");
        }));
        pipelines.add(new RecordingListener("last", journal));

        pipelines.dispatch(SW, PACKET_IN);

        assertEquals(List.of("unloaded", "recursive", "last"), journal);
        assertEquals(2, failures.size());
    }

    @Test
    void aNullAnswerCountsAsContinue() {
        pipelines.add(new RecordingListener("silent", Set.of(OFType.PACKET_IN), journal, (s, m) -> null));
        pipelines.add(new RecordingListener("next", journal));

        assertEquals(Command.CONTINUE, pipelines.dispatch(SW, PACKET_IN));
        assertEquals(List.of("silent", "next"), journal);
    }

    @Test
    void reorderingAtRuntimeAppliesToTheNextMessage() {
        pipelines.setOrder(OFType.PACKET_IN, List.of("a", "b", "c"));
        pipelines.add(new RecordingListener("a", journal));
        pipelines.add(new RecordingListener("b", journal));
        pipelines.add(new RecordingListener("c", journal));
        pipelines.dispatch(SW, PACKET_IN);

        pipelines.setOrder(OFType.PACKET_IN, List.of("c", "a"));
        pipelines.dispatch(SW, PACKET_IN);

        assertEquals(List.of("a", "b", "c", "c", "a", "b"), journal);
        assertEquals(List.of("c", "a"), pipelines.getOrder(OFType.PACKET_IN));
    }

    @Test
    void orderKeepsNamesThatAreNotRegisteredYet() {
        pipelines.setOrder(OFType.PACKET_IN, List.of(" late ", "", "early", "late"));
        pipelines.add(new RecordingListener("early", journal));
        pipelines.add(new RecordingListener("late", journal));

        pipelines.dispatch(SW, PACKET_IN);

        assertEquals(List.of("late", "early"), pipelines.getOrder(OFType.PACKET_IN));
        assertEquals(List.of("late", "early"), journal);
    }

    @Test
    void listenersComingAndGoing() {
        pipelines.setOrder(OFType.PACKET_IN, List.of("a", "b", "c"));
        RecordingListener a = new RecordingListener("a", journal);
        RecordingListener c = new RecordingListener("c", journal);
        pipelines.add(c);
        pipelines.add(a);
        pipelines.dispatch(SW, PACKET_IN);
        assertEquals(List.of("a", "c"), journal);

        journal.clear();
        RecordingListener b = new RecordingListener("b", journal);
        pipelines.add(b);
        assertEquals("a", pipelines.remove(a));
        assertEquals(null, pipelines.remove(a), "already gone");
        pipelines.dispatch(SW, PACKET_IN);
        assertEquals(List.of("b", "c"), journal);

        journal.clear();
        pipelines.remove(b);
        pipelines.remove(c);
        assertEquals(Command.CONTINUE, pipelines.dispatch(SW, PACKET_IN));
        assertEquals(List.of(), journal);
        assertEquals(Map.of(), pipelines.names());
    }

    @Test
    void aReRegisteredListenerGetsItsConfiguredPlaceBack() {
        pipelines.setOrder(OFType.PACKET_IN, List.of("a", "b"));
        RecordingListener a = new RecordingListener("a", journal);
        pipelines.add(a);
        pipelines.add(new RecordingListener("b", journal));
        pipelines.remove(a);
        pipelines.add(new RecordingListener("a", journal)); // e.g. its bundle was updated

        pipelines.dispatch(SW, PACKET_IN);

        assertEquals(List.of("a", "b"), journal);
    }

    @Test
    void aMessageInFlightFinishesOnTheChainItStartedWith() {
        RecordingListener[] later = new RecordingListener[1];
        pipelines.add(new RecordingListener("remover", Set.of(OFType.PACKET_IN), journal, (s, m) -> {
            pipelines.remove(later[0]);
            return Command.CONTINUE;
        }));
        later[0] = new RecordingListener("later", journal);
        pipelines.add(later[0]);

        pipelines.dispatch(SW, PACKET_IN);
        pipelines.dispatch(SW, PACKET_IN);

        assertEquals(List.of("remover", "later", "remover"), journal);
    }

    @Test
    void aListenerJoinsEachOfItsTypesAndOnlyThose() {
        RecordingListener both = new RecordingListener("both", Set.of(OFType.PACKET_IN, OFType.ECHO_REQUEST),
                journal, (s, m) -> Command.CONTINUE);
        pipelines.add(both);
        pipelines.add(new RecordingListener("packetsOnly", journal));

        pipelines.dispatch(SW, ECHO);
        assertEquals(List.of("both"), journal);
        assertEquals(Map.of(OFType.PACKET_IN, List.of("both", "packetsOnly"), OFType.ECHO_REQUEST, List.of("both")),
                pipelines.names());

        pipelines.remove(both);
        assertEquals(Map.of(OFType.PACKET_IN, List.of("packetsOnly")), pipelines.names());
    }

    @Test
    void aListenerWithoutNameOrTypesIsLeftOutAndOthersStillJoin() {
        MessageListener noTypes = new RecordingListener("nothing", Set.of(), journal, (s, m) -> Command.CONTINUE);
        MessageListener brokenName = new RecordingListener("x", journal) {
            @Override
            public String getName() {
                throw new IllegalStateException("not configured");
            }
        };
        assertFalse(pipelines.add(noTypes));
        assertFalse(pipelines.add(brokenName));
        assertTrue(pipelines.add(new RecordingListener("fine", journal)));

        pipelines.dispatch(SW, PACKET_IN);

        assertEquals(List.of("fine"), journal);
    }

    @Test
    void dispatchIsConsistentWhileListenersComeAndGoOnOtherThreads() throws Exception {
        pipelines.setOrder(OFType.PACKET_IN, List.of("first", "flapping", "last"));
        List<String> seen = new ArrayList<>(); // only touched by the dispatching thread
        AtomicReference<String> broken = new AtomicReference<>();
        pipelines.add(new RecordingListener("first", Set.of(OFType.PACKET_IN), seen, (s, m) -> Command.CONTINUE));
        pipelines.add(new RecordingListener("last", Set.of(OFType.PACKET_IN), seen, (s, m) -> {
            // Every message must have seen "first" and at most one "flapping", in that order.
            int n = seen.size();
            boolean ok = n >= 2 && ("first".equals(seen.get(n - 2))
                    || ("flapping".equals(seen.get(n - 2)) && n >= 3 && "first".equals(seen.get(n - 3))));
            if (!ok) {
                broken.compareAndSet(null, String.valueOf(seen.subList(Math.max(0, n - 3), n)));
            }
            seen.clear();
            return Command.CONTINUE;
        }));
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch flapped = new CountDownLatch(1000);
        Thread flapper = new Thread(() -> {
            while (!stop.get()) {
                RecordingListener flapping = new RecordingListener("flapping", Set.of(OFType.PACKET_IN), seen,
                        (s, m) -> Command.CONTINUE);
                pipelines.add(flapping);
                pipelines.remove(flapping);
                flapped.countDown();
            }
        });
        flapper.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (flapped.getCount() > 0 && System.nanoTime() < deadline) {
                pipelines.dispatch(SW, PACKET_IN);
            }
        } finally {
            stop.set(true);
            flapper.join();
        }
        assertEquals(0, flapped.getCount(), "the flapping thread made progress");
        assertEquals(null, broken.get());
        assertEquals(List.of("first", "last"), pipelines.names(OFType.PACKET_IN));
    }

    @Test
    void dispatchAllocatesNothing() {
        pipelines.add(new RecordingListener("a", Set.of(OFType.PACKET_IN), new ArrayList<>(0) {
            @Override
            public boolean add(String s) {
                return true; // keep the journal itself from allocating
            }
        }, (s, m) -> Command.CONTINUE));
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 20_000; i++) {
            pipelines.dispatch(SW, PACKET_IN); // warm up, let the JIT settle
        }
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 100_000; i++) {
            pipelines.dispatch(SW, PACKET_IN);
        }
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        // A few hundred bytes of noise from the measurement itself; one allocation per dispatch would be >1 MB.
        assertTrue(allocated < 100_000, "dispatch allocated " + allocated + " bytes for 100k messages");
    }

    @Test
    void theSwitchAndMessageReachTheListener() {
        AtomicReference<OFSwitch> gotSwitch = new AtomicReference<>();
        AtomicReference<OFMessage> gotMessage = new AtomicReference<>();
        pipelines.add(new RecordingListener("probe", Set.of(OFType.PACKET_IN), journal, (s, m) -> {
            gotSwitch.set(s);
            gotMessage.set(m);
            return Command.CONTINUE;
        }));

        pipelines.dispatch(SW, PACKET_IN);

        assertSame(SW, gotSwitch.get());
        assertSame(PACKET_IN, gotMessage.get());
    }
}
