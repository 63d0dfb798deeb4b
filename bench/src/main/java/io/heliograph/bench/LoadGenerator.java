package io.heliograph.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The generator: connects the emulated switches and runs the tests on one thread, one selector,
 * non-blocking sockets and direct buffers. Each test lasts {@code -m} ms (the first one {@code -D}
 * more, not counted in its rate) and is followed, as in cbench, by a 100 ms pause in which the
 * switches answer the controller but send nothing and count nothing; a latency-mode switch whose
 * packet-in went unanswered starts afresh with the next test. Replies the switches send late
 * ({@link SwitchBehaviour}) go out when due, from the same loop.
 *
 * <p>In latency mode the loop spins ({@code selectNow}) instead of sleeping in {@code select}: a
 * round trip is tens of microseconds, and waking a sleeping thread costs about as much again, so a
 * sleeping client measures its own wake-ups (a third of the rate a spinning C client measures against
 * the same controller). With one switch it spins on that switch's socket itself, as the reference C
 * client does: a {@code selectNow} would be a second system call in every turn of the spin, and
 * a round trip's answer would wait for both. Throughput mode keeps the controller's queue full and
 * sleeps only when the socket does.
 */
final class LoadGenerator implements AutoCloseable {

    private static final long PAUSE_NANOS = 100_000_000L;
    private static final int CONNECT_TIMEOUT_MS = 3000;
    /** How often switches waiting out {@code -D} are looked at. */
    private static final long DELAY_CHECK_NANOS = 1_000_000L;
    private static final ThreadMXBean CPU_CLOCK = ManagementFactory.getThreadMXBean();

    private final BenchOptions options;
    private final PrintStream out;
    private final PrintStream err;
    private final Selector selector;
    private final List<SwitchSocket> sockets = new ArrayList<>();
    /** A failure met inside the selector's callback, thrown once the select returns. */
    private BenchException failure;
    private int notYetSending;
    private long nextDelayCheck;
    /** Whether a switch holds a late reply, and when the first one falls due (System.nanoTime). */
    private boolean lateReplies;
    private long nextLateReply;
    /** The event loop's CPU time and the wall time in tests, and the responses counted in them. */
    private long testCpuNanos;
    private long testWallNanos;
    private long responsesCounted;

    LoadGenerator(BenchOptions options, PrintStream out, PrintStream err) throws IOException {
        this.options = options;
        this.out = out;
        this.err = err;
        this.selector = Selector.open();
    }

    /** Runs every test and prints cbench's lines; the RESULT line is last. */
    void run() throws BenchException, IOException {
        err.print(options.describe());
        err.flush();
        connect();
        Results results = new Results(options.switches(), options.warmup(), options.cooldown());
        for (int test = 0; test < options.loops(); test++) {
            long delay = test == 0 ? options.delayMs() * 1_000_000L : 0;
            for (SwitchSocket s : sockets) {
                s.sw.startTest();
                s.flush();
            }
            long cpuBefore = threadCpuNanos();
            long start = System.nanoTime();
            runUntil(start + options.msPerTest() * 1_000_000L + delay);
            long end = System.nanoTime();
            testCpuNanos += threadCpuNanos() - cpuBefore;
            testWallNanos += end - start;
            int[] counts = new int[sockets.size()];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = sockets.get(i).sw.endTest();
                responsesCounted += counts[i];
            }
            out.println(results.add(LocalTime.now(), counts, (end - start - delay) / 1e6));
            out.flush();
            runUntil(end + PAUSE_NANOS);
        }
        out.println(results.result());
        out.flush();
        load();
        warnings();
    }

    private void connect() throws BenchException, IOException {
        InetSocketAddress controller = new InetSocketAddress(options.host(), options.port());
        if (controller.isUnresolved()) {
            throw new BenchException("-c: cannot resolve the controller host '" + options.host() + "'");
        }
        for (int i = 0; i < options.switches(); i++) {
            long dpid = options.dpidOffset() + i;
            SocketChannel channel = SocketChannel.open();
            try {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                channel.socket().connect(controller, CONNECT_TIMEOUT_MS);
                channel.configureBlocking(false);
            } catch (IOException e) {
                channel.close();
                throw new BenchException("switch " + (i + 1) + " cannot connect to the controller at "
                        + options.host() + ":" + options.port() + ": " + e.getMessage());
            }
            SwitchSocket s = new SwitchSocket(new EmulatedSwitch(i + 1, dpid, options), channel);
            s.key = channel.register(selector, SelectionKey.OP_READ, s);
            s.ops = SelectionKey.OP_READ;
            sockets.add(s);
            s.flush();   // its HELLO
        }
        notYetSending = sockets.size();
    }

    /** Runs the event loop until {@code deadline} (System.nanoTime). */
    private void runUntil(long deadline) throws BenchException, IOException {
        while (true) {
            long now = System.nanoTime();
            if (now >= deadline) {
                return;
            }
            if (notYetSending > 0 && now >= nextDelayCheck) {
                startDelayedSwitches(now);
                nextDelayCheck = now + DELAY_CHECK_NANOS;
            }
            if (lateReplies && now - nextLateReply >= 0) {
                sendLateReplies(now);
            }
            long waitNanos = deadline - now;
            if (notYetSending > 0) {
                waitNanos = Math.min(waitNanos, DELAY_CHECK_NANOS);
            }
            if (lateReplies) {
                waitNanos = Math.min(waitNanos, Math.max(0, nextLateReply - now));
            }
            if (options.throughput()) {
                selector.select(this::ready, Math.max(1, waitNanos / 1_000_000L));
            } else if (sockets.size() == 1) {
                serve(sockets.get(0), true);
            } else {
                selector.selectNow(this::ready);
            }
            if (failure != null) {
                throw failure;
            }
        }
    }

    private void startDelayedSwitches(long now) throws IOException {
        for (SwitchSocket s : sockets) {
            if (s.sw.state() == EmulatedSwitch.State.DELAYING && now - s.sw.sendingFrom() >= 0) {
                s.sw.delayOver();
                notYetSending--;
                s.flush();
            }
        }
    }

    /** Hands every due late reply to its socket, and finds when the next one is due. */
    private void sendLateReplies(long now) throws IOException {
        lateReplies = false;
        for (SwitchSocket s : sockets) {
            s.sw.sendLateReplies(now);
            s.flush();
            noteLateReplies(s.sw);
        }
    }

    private void noteLateReplies(EmulatedSwitch sw) {
        long due = sw.nextLateReplyNanos();
        if (due == Long.MAX_VALUE) {
            return;
        }
        if (!lateReplies || due - nextLateReply < 0) {
            nextLateReply = due;
            lateReplies = true;
        }
    }

    private void ready(SelectionKey key) {
        serve((SwitchSocket) key.attachment(), key.isReadable());
    }

    /** Reads what the controller sent (non-blocking: nothing, if nothing came); writes what the switch has to say. */
    private void serve(SwitchSocket s, boolean readable) {
        try {
            if (readable) {
                s.read();
                noteLateReplies(s.sw);
            }
            s.flush();
        } catch (EmulatedSwitch.ProtocolException e) {
            failure = new BenchException(e.getMessage());
        } catch (IOException e) {
            failure = new BenchException("switch " + s.sw.number() + " (dpid " + s.sw.dpid() + "): " + e.getMessage());
        }
    }

    /**
     * How busy the generator itself was during the tests: near 100% means it may have been the
     * bottleneck; well below, it was waiting for the controller (or for a core it shares).
     */
    private void load() {
        if (!CPU_CLOCK.isCurrentThreadCpuTimeSupported() || testWallNanos == 0) {
            return;
        }
        err.printf(java.util.Locale.ROOT, "generator: event loop busy %.0f%% of the test time (%.2f s CPU in %.2f s),"
                        + " %d responses counted, %.0f responses per CPU second%n",
                100.0 * testCpuNanos / testWallNanos, testCpuNanos / 1e9, testWallNanos / 1e9, responsesCounted,
                testCpuNanos == 0 ? 0 : responsesCounted / (testCpuNanos / 1e9));
    }

    private static long threadCpuNanos() {
        return CPU_CLOCK.isCurrentThreadCpuTimeSupported() ? CPU_CLOCK.getCurrentThreadCpuTime() : 0;
    }

    private void warnings() {
        long silent = sockets.stream().filter(s -> s.sw.state() != EmulatedSwitch.State.SENDING).count();
        if (silent > 0) {
            err.println("warning: " + silent + " of " + sockets.size() + " switches never got to send packet-ins"
                    + " (no FEATURES_REQUEST from the controller)");
        }
        int errors = 0;
        String first = null;
        for (SwitchSocket s : sockets) {
            errors += s.sw.errorsReceived();
            if (first == null) {
                first = s.sw.firstError();
            }
        }
        if (errors > 0) {
            err.println("warning: the controller sent " + errors + " OpenFlow error messages (the first: " + first + ")");
        }
        requests();
        err.flush();
    }

    /**
     * What the controller asked beyond the handshake and what the switches did with it; in latency
     * mode, how long packet-ins waited for their answers.
     */
    private void requests() {
        EmulatedSwitch.Requests stats = new EmulatedSwitch.Requests();
        EmulatedSwitch.Requests roles = new EmulatedSwitch.Requests();
        long pending = 0;
        long longestWait = 0;
        long unanswered = 0;
        for (SwitchSocket s : sockets) {
            stats.add(s.sw.statsRequests());
            roles.add(s.sw.roleRequests());
            pending += s.sw.lateRepliesWaiting();
            longestWait = Math.max(longestWait, s.sw.longestWaitNanos());
            unanswered += s.sw.unanswered();
        }
        err.println("controller requests: statistics " + stats + "; role " + roles
                + (pending > 0 ? "; " + pending + " late replies not yet due when the run ended" : ""));
        if (!options.throughput()) {
            err.printf(java.util.Locale.ROOT, "packet-ins: the longest wait for an answer was %.1f ms; %d waited %d ms"
                    + " or more (unanswered)%n", longestWait / 1e6, unanswered,
                    EmulatedSwitch.UNANSWERED_NANOS / 1_000_000);
        }
    }

    @Override
    public void close() throws IOException {
        for (SwitchSocket s : sockets) {
            s.channel.close();
        }
        selector.close();
    }

    /** An emulated switch and its socket. */
    private static final class SwitchSocket {
        final EmulatedSwitch sw;
        final SocketChannel channel;
        SelectionKey key;
        int ops;

        SwitchSocket(EmulatedSwitch sw, SocketChannel channel) {
            this.sw = sw;
            this.channel = channel;
        }

        void read() throws IOException, EmulatedSwitch.ProtocolException {
            int n = channel.read(sw.input());
            if (n < 0) {
                throw new IOException("the controller closed the connection");
            }
            if (n > 0) {
                sw.process();
            }
        }

        /** Sends what the socket takes now; asks to hear when it can take more, if anything is left. */
        void flush() throws IOException {
            if (sw.wantsToFill()) {
                sw.fill();
            }
            ByteBuffer o = sw.output();
            if (o.position() > 0) {
                o.flip();
                channel.write(o);
                o.compact();
            }
            int want = o.position() > 0 || sw.wantsToFill()
                    ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ;
            if (want != ops) {
                key.interestOps(want);
                ops = want;
            }
        }
    }

    /** The run cannot go on; the message says why. */
    static final class BenchException extends Exception {
        private static final long serialVersionUID = 1L;

        BenchException(String message) {
            super(message);
        }
    }
}
