package io.heliograph.devices.internal;

/**
 * How hosts are tracked.
 *
 * @param hostTimeoutMs        an attachment point not seen for this long is forgotten; a host with
 *                             none left is removed
 * @param multiHomeWindowMs    how long an attachment point survives, unrefreshed, once the host has
 *                             appeared at another port since it was last seen there. 0: a host has
 *                             one location and every new port is a move at once. Equal to
 *                             hostTimeoutMs: attachment points are only dropped when they time out
 *                             (hosts with several locations, e.g. Virtue's gateway behind every ToR;
 *                             a point dropped so after the host appeared elsewhere is still a move)
 * @param maxAttachmentPoints  the most attachment points kept per host (the least recent go first)
 * @param maxAddressesPerHost  the most IPv4 and the most IPv6 addresses kept per host (the least
 *                             recently claimed go first): a router's MAC carries every routed source
 * @param maxHosts             the most hosts tracked
 * @param maxHostsPerPort      the most hosts tracked at one edge port, so a MAC flood on one port fills
 *                             only that port's share; more than maxHosts is maxHosts
 * @param hostIdleMs           a host (at a port: its attachment point) seen within this long is never
 *                             evicted: at a bound a new host takes the place of the least recently
 *                             seen one only if that one is idle, and is refused otherwise
 * @param maxPending           the most sightings waiting for the tracker's thread; a burst beyond it is
 *                             dropped (and counted), never waited for
 */
record TrackerSettings(long hostTimeoutMs, long multiHomeWindowMs, int maxAttachmentPoints,
        int maxAddressesPerHost, int maxHosts, int maxHostsPerPort, long hostIdleMs, int maxPending) {

    static final TrackerSettings DEFAULTS = new TrackerSettings(300_000, 1_000, 8, 16, 65_536, 1_024, 120_000,
            65_536);

    private static final long MAX_TIMEOUT_MS = 7L * 24 * 3600 * 1000;

    TrackerSettings {
        check("hostTimeoutMs", hostTimeoutMs, 1_000, MAX_TIMEOUT_MS);
        check("multiHomeWindowMs", multiHomeWindowMs, 0, hostTimeoutMs);
        check("maxAttachmentPoints", maxAttachmentPoints, 1, 256);
        check("maxAddressesPerHost", maxAddressesPerHost, 1, 1_024);
        check("maxHosts", maxHosts, 1, 1 << 24);
        check("maxHostsPerPort", maxHostsPerPort, 1, 1 << 24);
        check("hostIdleMs", hostIdleMs, 1_000, MAX_TIMEOUT_MS);
        check("maxPending", maxPending, 1, 1 << 24);
        maxHostsPerPort = Math.min(maxHostsPerPort, maxHosts);
    }

    private static void check(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be within " + min + ".." + max + ", was " + value);
        }
    }

    /**
     * How often the tracker needs to hear that a host is still at the same port. Packet-ins that only
     * say that, sooner, are dropped on the I/O thread; the bound keeps the dropped refreshes well
     * inside the move window and the timeout, so neither acts on a stale last-seen time.
     */
    long refreshMs() {
        long refresh = Math.min(1_000, hostTimeoutMs / 10);
        return multiHomeWindowMs == 0 ? refresh : Math.max(1, Math.min(refresh, multiHomeWindowMs / 4));
    }

    /**
     * How often, at most, a host's last-seen times alone are written to the cluster's store: a tenth
     * of the timeout (the owner expires its hosts itself, so the others need them only roughly), and
     * never more often than the tracker itself hears of them.
     */
    long sharedRefreshMs() {
        return Math.max(refreshMs(), hostTimeoutMs / 10);
    }

    /** How often timed-out and superseded attachment points are swept. */
    long sweepIntervalMs() {
        return Math.min(1_000, hostTimeoutMs / 4);
    }
}
