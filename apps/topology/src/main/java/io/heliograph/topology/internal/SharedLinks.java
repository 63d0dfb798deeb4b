package io.heliograph.topology.internal;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.SwitchPort;
import io.heliograph.core.cluster.ClusterService;
import io.heliograph.core.cluster.EntrySharing;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.json.Json;
import io.heliograph.topology.Link;

/**
 * The links of the whole cluster. Those this instance discovers are kept in the shared store under
 * {@value #PREFIX}{@code /<instance>/<link>} (written when found, deleted when lost: a probe that
 * merely confirms a link writes nothing), and those the other live instances discovered are handed
 * to {@link LinkDiscovery} on the topology thread, which shows the union. When an instance leaves,
 * its links stay in the others' views for {@code retainMs} (the link timeout: as if last confirmed
 * when it left) while the new masters of its switches find them again, so paths over them, and the
 * flows forwarding installed along them, are not dropped and rebuilt.
 *
 * <p>A link's key names both ends ({@code 0000000000000001-1-0000000000000002-3}); its value is
 * JSON: {@code {"src":"00:00:00:00:00:00:00:01/1","dst":"00:00:00:00:00:00:00:02/3",
 * "firstSeen":"2025-01-01T00:00:00Z"}}.
 */
public final class SharedLinks extends EntrySharing {

    private static final Logger LOG = LoggerFactory.getLogger(SharedLinks.class);

    static final String PREFIX = "topology/links";
    private static final Pattern KEY = Pattern.compile("([0-9a-f]{16})-(\\d+)-([0-9a-f]{16})-(\\d+)");

    private final LinkDiscovery discovery;
    private final Executor topologyThread;

    /**
     * @param storeThread    writes this instance's links (coalesced) and sweeps the others'
     * @param topologyThread where {@code discovery} runs: the others' links are handed to it there
     * @param retainMs       how long the links of an instance that left stay in view
     */
    public SharedLinks(SharedStore store, ClusterService cluster, LinkDiscovery discovery, Executor topologyThread,
            ScheduledExecutorService storeThread, long flushDelayMs, long retainMs) {
        super(store, cluster, PREFIX, storeThread, flushDelayMs, retainMs);
        this.discovery = discovery;
        this.topologyThread = topologyThread;
    }

    // From discovery, on the topology thread

    void localAdded(Link link, long firstSeenMs) {
        entries.put(key(link), value(link, firstSeenMs));
    }

    void localRemoved(Link link) {
        entries.remove(key(link));
    }

    // From the store: another instance's link

    @Override
    public void changed(String owner, String id, byte[] value) {
        Link link = parseKey(id);
        if (link == null) {
            LOG.warn("{}/{}/{} is not a link key (srcdpid-port-dstdpid-port); ignored", PREFIX, owner, id);
            return;
        }
        long firstSeen = firstSeen(value);
        onTopologyThread(() -> discovery.remoteLinkAdded(owner, link, firstSeen));
    }

    @Override
    public void removed(String owner, String id) {
        Link link = parseKey(id);
        if (link != null) {
            onTopologyThread(() -> discovery.remoteLinkRemoved(owner, link));
        }
    }

    private void onTopologyThread(Runnable task) {
        try {
            topologyThread.execute(task);
        } catch (RejectedExecutionException e) {
            // stopping
        }
    }

    static String key(Link link) {
        return String.format(Locale.ROOT, "%016x-%s-%016x-%s", link.src().dpid().getLong(),
                Integer.toUnsignedString(link.src().port().getPortNumber()), link.dst().dpid().getLong(),
                Integer.toUnsignedString(link.dst().port().getPortNumber()));
    }

    /** The link a key names, or null when it is not a link key. */
    static Link parseKey(String id) {
        Matcher m = KEY.matcher(id);
        if (!m.matches()) {
            return null;
        }
        try {
            return new Link(end(m.group(1), m.group(2)), end(m.group(3), m.group(4)));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static SwitchPort end(String dpid, String port) {
        return SwitchPort.of(DatapathId.of(Long.parseUnsignedLong(dpid, 16)), OFPort.of(Integer.parseUnsignedInt(port)));
    }

    static byte[] value(Link link, long firstSeenMs) {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("src", link.src().dpid() + "/" + Integer.toUnsignedString(link.src().port().getPortNumber()));
        value.put("dst", link.dst().dpid() + "/" + Integer.toUnsignedString(link.dst().port().getPortNumber()));
        value.put("firstSeen", Instant.ofEpochMilli(firstSeenMs).toString());
        return Json.compact(value);
    }

    /** When the owner found the link (wall clock, ms); now when the value does not say. */
    static long firstSeen(byte[] value) {
        try {
            if (Json.flatObject(value).get("firstSeen") instanceof String firstSeen) {
                return Instant.parse(firstSeen).toEpochMilli();
            }
        } catch (IllegalArgumentException | DateTimeParseException e) {
            // fall through
        }
        return System.currentTimeMillis();
    }
}
