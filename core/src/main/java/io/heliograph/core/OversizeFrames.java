package io.heliograph.core;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The frames an app could not send back in a PACKET_OUT: an unbuffered packet-in close to 64 KiB
 * whose frame and output actions exceed the 65,535 bytes of one OpenFlow message (see
 * {@link PacketIns#fitsPacketOut}). The app drops such a frame rather than truncate it: a truncated
 * frame is a corrupt one (its IP length and checksums no longer agree), which every receiver drops
 * anyway, and a frame that large fits no physical Ethernet link (jumbo frames stop at about 9 KiB), so
 * only a misbehaving or hostile switch sends one. Each drop is counted, and logged at most once per
 * {@value #QUIET_SECONDS} s, naming the switch and how many were left out, so a switch sending them
 * at line rate cannot flood the log. Thread-safe: every switch's I/O thread calls it.
 */
public final class OversizeFrames {

    static final long QUIET_SECONDS = 10;
    private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(QUIET_SECONDS);
    private static final Logger LOG = LoggerFactory.getLogger(OversizeFrames.class);

    private final String app;
    private final LongSupplier nanoClock;
    private final Consumer<String> log;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong unlogged = new AtomicLong();
    private final AtomicLong nextLogAt;

    /** Logging warnings on the real clock. */
    public OversizeFrames(String app) {
        this(app, System::nanoTime, LOG::warn);
    }

    /**
     * @param app       the app's name, for the log line
     * @param nanoClock a monotonic clock ({@code System::nanoTime})
     * @param log       writes one warning line
     */
    public OversizeFrames(String app, LongSupplier nanoClock, Consumer<String> log) {
        this.app = app;
        this.nanoClock = nanoClock;
        this.log = log;
        this.nextLogAt = new AtomicLong(nanoClock.getAsLong());
    }

    /**
     * Whether the packet-in's packet can go out in one PACKET_OUT with {@code outputActions} output
     * actions; when it cannot, the drop is counted (and maybe logged) and the caller sends nothing.
     */
    public boolean fits(OFSwitch sw, OFPacketIn packetIn, int outputActions) {
        if (PacketIns.fitsPacketOut(packetIn, outputActions)) {
            return true;
        }
        dropped.incrementAndGet();
        long now = nanoClock.getAsLong();
        long due = nextLogAt.get();
        if (now - due < 0 || !nextLogAt.compareAndSet(due, now + QUIET_NANOS)) {
            unlogged.incrementAndGet();
            return false;
        }
        long more = unlogged.getAndSet(0);
        log.accept(app + ": switch " + sw.getId() + " sent a " + packetIn.getData().length + "-byte frame ("
                + packetIn.getVersion() + ") that cannot go back in a packet-out of at most 65,535 bytes with "
                + outputActions + " output action(s); dropped"
                + (more == 0 ? "" : " (" + more + " more such frames in the last " + QUIET_SECONDS + " s not logged)"));
        return false;
    }

    /** Frames dropped since this was made. */
    public long dropped() {
        return dropped.get();
    }
}
