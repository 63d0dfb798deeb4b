package io.heliograph.openflow;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.spi.PipelineDispatch;

/** A controller in the test JVM: the real server on an ephemeral loopback port, a recording pipeline and switch listener. */
final class ControllerFixture implements AutoCloseable {

    /** A pipeline that records what it is given and runs an optional per-message hook (the "listener"). */
    static final class RecordingPipeline implements PipelineDispatch {
        final ConcurrentLinkedQueue<OFMessage> dispatched = new ConcurrentLinkedQueue<>();
        /** Every call in order: "prepare XID" for each message of a read prepared for, and "dispatch XID". */
        final ConcurrentLinkedQueue<String> calls = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Thread> threads = new ConcurrentLinkedQueue<>();
        volatile BiConsumer<OFSwitch, OFMessage> hook = (sw, m) -> { };
        /** Runs with each read's messages, before they are dispatched. */
        volatile BiConsumer<OFSwitch, List<OFMessage>> readHook = (sw, read) -> { };

        @Override
        public void prepare(OFSwitch sw, List<OFMessage> read) {
            for (OFMessage message : read) {
                calls.add("prepare " + message.getXid());
            }
            readHook.accept(sw, read);
        }

        @Override
        public void dispatch(OFSwitch sw, OFMessage message) {
            calls.add("dispatch " + message.getXid());
            dispatched.add(message);
            threads.add(Thread.currentThread());
            hook.accept(sw, message);
        }
    }

    /** Records listener calls as strings like "added 00:..:01". */
    static final class RecordingListener implements SwitchListener {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void switchAdded(OFSwitch sw) {
            events.add("added " + sw.getId() + " " + sw.getRemoteAddress().getPort());
        }

        @Override
        public void switchRemoved(OFSwitch sw) {
            events.add("removed " + sw.getId() + " " + sw.getRemoteAddress().getPort());
        }

        @Override
        public void portChanged(OFSwitch sw, OFPortDesc port, PortChange change) {
            events.add("port " + change + " " + port.getPortNo());
        }

        @Override
        public void roleChanged(OFSwitch sw, Role role) {
            events.add("role " + role);
        }
    }

    final RecordingPipeline pipeline = new RecordingPipeline();
    final RecordingListener listener = new RecordingListener();
    final SwitchRegistry registry = new SwitchRegistry();
    final OpenFlowServer server;

    ControllerFixture(OpenFlowSettings settings) throws Exception {
        this(settings, System::nanoTime);
    }

    /** With the clock the packet-in budgets refill by. */
    ControllerFixture(OpenFlowSettings settings, java.util.function.LongSupplier nanoClock) throws Exception {
        registry.addListener(listener);
        server = new OpenFlowServer(settings, registry, pipeline, nanoClock);
        server.start();
    }

    ControllerFixture() throws Exception {
        this(testSettings());
    }

    static OpenFlowSettings testSettings() {
        return OpenFlowSettings.defaults().withIoThreads(2)
                .withTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(30), Duration.ofSeconds(2), Duration.ofSeconds(2));
    }

    int port() {
        return server.port();
    }

    /** Waits (with a deadline, polling) until the switch with this id is active. */
    OFSwitch awaitSwitch(long dpid) {
        DatapathId id = DatapathId.of(dpid);
        await(() -> registry.getSwitch(id) != null, "switch " + id + " announced");
        return registry.getSwitch(id);
    }

    static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + FakeSwitch.WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(2_000_000); // poll interval, not a wait for time to pass
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
