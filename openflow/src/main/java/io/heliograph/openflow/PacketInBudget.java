package io.heliograph.openflow;

import java.util.function.LongSupplier;

/**
 * How many packet-ins one switch may hand to the apps: a token bucket of {@code burst} tokens
 * refilled at {@code rate} per second. Refilled once per read from the socket (one clock read for
 * every message of a read), taken once per packet-in; a packet-in with no token left is dropped and
 * counted, never queued. Only the switch's I/O thread changes it; the counters are read from any thread.
 */
final class PacketInBudget {

    /** A token in the units the bucket counts in: one earned per nanosecond per packet-in per second of rate. */
    private static final long TOKEN = 1_000_000_000L;

    private final long rate;
    private final long capacity;
    private final LongSupplier nanoClock;
    /** Whole and fractional tokens, in {@link #TOKEN}ths: exact, so fractions of a token add up. */
    private long units;
    private long refilledAt;
    private long windowStart;
    private long windowTaken;

    private volatile long dropped;
    private volatile long taken;
    /** Packet-ins taken in the last whole second that ended, for the bounds report. */
    private volatile long lastSecond;

    /** {@code rate} packet-ins per second (0 = unlimited), at most {@code burst} at once. */
    PacketInBudget(int rate, int burst, LongSupplier nanoClock) {
        this.rate = rate;
        this.capacity = rate == 0 ? Long.MAX_VALUE : burst * TOKEN;
        this.nanoClock = nanoClock;
        this.units = capacity;
        this.refilledAt = nanoClock.getAsLong();
        this.windowStart = refilledAt;
    }

    /** Adds the tokens earned since the last refill, up to the burst. */
    void refill() {
        long now = nanoClock.getAsLong();
        long elapsed = now - refilledAt;
        if (elapsed <= 0) {
            return;
        }
        refilledAt = now;
        if (now - windowStart >= TOKEN) { // TOKEN nanoseconds: a second
            lastSecond = now - windowStart < 2 * TOKEN ? windowTaken : 0; // an idle gap: nothing recent
            windowStart = now;
            windowTaken = 0;
        }
        if (rate == 0) {
            return;
        }
        long room = capacity - units;
        // elapsed * rate, without overflowing: past the time to fill the bucket it is full anyway
        units = elapsed > room / rate ? capacity : Math.min(capacity, units + elapsed * rate);
    }

    /** True when a packet-in may go to the apps (a token is taken); false when it is to be dropped (counted). */
    boolean take() {
        if (rate == 0) {
            taken++;
            windowTaken++;
            return true;
        }
        if (units >= TOKEN) {
            units -= TOKEN;
            taken++;
            windowTaken++;
            return true;
        }
        dropped++;
        return false;
    }

    long dropped() {
        return dropped;
    }

    long taken() {
        return taken;
    }

    /** Packet-ins handed to the apps in the last whole second measured. */
    long lastSecond() {
        return lastSecond;
    }
}
