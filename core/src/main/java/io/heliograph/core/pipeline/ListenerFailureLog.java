package io.heliograph.core.pipeline;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

import org.projectfloodlight.openflow.protocol.OFMessage;

import io.heliograph.core.MessageListener;
import io.heliograph.core.OFSwitch;

/**
 * Logs listener failures with the switch, the message type and the listener, at most once per
 * listener per quiet period. A listener that throws on every packet-in would otherwise write a stack
 * trace per packet, at line rate, and take the controller down with its log; the next line that is
 * written says how many were left out.
 */
public final class ListenerFailureLog implements ListenerFailures {

    static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final LongSupplier nanoClock;
    private final BiConsumer<String, Throwable> sink;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

    /**
     * @param nanoClock a monotonic clock in nanoseconds ({@code System::nanoTime})
     * @param sink      writes one log line and its exception
     */
    public ListenerFailureLog(LongSupplier nanoClock, BiConsumer<String, Throwable> sink) {
        this.nanoClock = nanoClock;
        this.sink = sink;
    }

    @Override
    public void listenerFailed(OFSwitch sw, OFMessage message, MessageListener listener, Throwable failure) {
        String name = nameOf(listener);
        long suppressed = windows.computeIfAbsent(name, n -> new Window()).admit(nanoClock.getAsLong());
        if (suppressed < 0) {
            return;
        }
        StringBuilder line = new StringBuilder(160)
                .append("Listener '").append(name).append("' failed on ").append(message.getType())
                .append(" (xid ").append(message.getXid()).append(") from switch ").append(switchOf(sw))
                .append(": ").append(failure).append("; skipped it, the pipeline goes on");
        if (suppressed > 0) {
            line.append(" (").append(suppressed).append(" more failures of this listener in the last ")
                    .append(TimeUnit.NANOSECONDS.toSeconds(QUIET_NANOS)).append(" s were not logged)");
        }
        sink.accept(line.toString(), failure);
    }

    private static String nameOf(MessageListener listener) {
        try {
            return listener.getName();
        } catch (RuntimeException e) {
            return listener.getClass().getName();
        }
    }

    private static String switchOf(OFSwitch sw) {
        if (sw == null) {
            return "(none)";
        }
        try {
            return String.valueOf(sw.getId());
        } catch (RuntimeException e) {
            return sw.toString();
        }
    }

    /** The log window of one listener. */
    private static final class Window {
        private boolean logged;
        private long lastLogged;
        private long suppressed;

        /** Returns -1 to stay quiet, or the number of failures left out since the last line. */
        synchronized long admit(long now) {
            if (logged && now - lastLogged < QUIET_NANOS) {
                suppressed++;
                return -1;
            }
            long left = suppressed;
            logged = true;
            lastLogged = now;
            suppressed = 0;
            return left;
        }
    }
}
