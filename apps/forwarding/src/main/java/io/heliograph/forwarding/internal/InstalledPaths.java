package io.heliograph.forwarding.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.forwarding.internal.InstalledPath.HostKey;
import io.heliograph.topology.Link;

/**
 * The paths whose flows are on the switches, indexed by what can invalidate them (link, switch,
 * host), so a failure deletes exactly the affected flows.
 *
 * <p>Each flow entry is owned by the last path that wrote it: adding a flow with the same match and
 * priority replaces it on the switch, so the earlier path no longer owns it and never deletes it.
 * Entries leave when the switch reports them removed (idle or hard timeout); a path with no entries
 * left is forgotten, which keeps the registry as small as the switches' tables. It is bounded too: at
 * {@code maxPaths} a new path is refused (and counted) rather than an old one evicted, since an old
 * path's flows may carry a flow that is busy now, and a path forgotten while its flows stay on the
 * switches could no longer be deleted when its link fails. Paths leave as their flows expire, or
 * with their switch (a switch that never reports expiries keeps its paths until it disconnects).
 *
 * <p>Cookies: the top 16 bits are our namespace ("FW"), the rest the path id and a direction bit, so
 * every entry of a path has a cookie of its own on each switch and {@code ovs-ofctl dump-flows}
 * shows which path an entry belongs to. Called from every switch's I/O thread and from the topology
 * and device threads: every method takes the registry's lock, and none does I/O.
 */
final class InstalledPaths {

    static final long NAMESPACE = 0x4657_0000_0000_0000L;
    static final long NAMESPACE_MASK = 0xffff_0000_0000_0000L;

    private final Map<Long, InstalledPath> paths = new HashMap<>();
    private final Map<Long, Set<FlowEntry>> liveEntries = new HashMap<>();
    private final Map<FlowEntry.TableKey, FlowEntry> owners = new HashMap<>();
    private final Map<CookieKey, FlowEntry> byCookie = new HashMap<>();
    private final Map<Link, Set<Long>> byLink = new HashMap<>();
    private final Map<DatapathId, Set<Long>> bySwitch = new HashMap<>();
    private final Map<HostKey, Set<Long>> byHost = new HashMap<>();
    private long nextId = 1;
    private long refused;

    /** A fresh path id. */
    synchronized long newPathId() {
        long id = nextId;
        nextId = (nextId + 1) & 0x7fff_ffff_ffffL; // 47 bits; wraps after ~10^14 paths
        if (nextId == 0) {
            nextId = 1;
        }
        return id;
    }

    static U64 cookie(long pathId, boolean reverse) {
        return U64.of(NAMESPACE | pathId << 1 | (reverse ? 1 : 0));
    }

    static boolean isOurs(U64 cookie) {
        return (cookie.getValue() & NAMESPACE_MASK) == NAMESPACE;
    }

    static long pathIdOf(U64 cookie) {
        return (cookie.getValue() & ~NAMESPACE_MASK) >>> 1;
    }

    /**
     * Records a path whose entries are being written; it takes over entries with the same table key.
     * False, counted, when {@code maxPaths} paths are recorded: the caller writes none of its entries.
     */
    synchronized boolean add(InstalledPath path, int maxPaths) {
        if (paths.size() >= maxPaths) {
            refused++;
            return false;
        }
        paths.put(path.id(), path);
        Set<FlowEntry> live = new LinkedHashSet<>();
        for (FlowEntry entry : path.entries()) {
            FlowEntry previous = owners.put(entry.tableKey(), entry);
            if (previous != null) {
                disown(previous);
            }
            byCookie.put(new CookieKey(entry.dpid(), entry.cookie()), entry);
            live.add(entry);
        }
        liveEntries.put(path.id(), live);
        path.links().forEach(l -> byLink.computeIfAbsent(l, k -> new HashSet<>()).add(path.id()));
        path.switches().forEach(s -> bySwitch.computeIfAbsent(s, k -> new HashSet<>()).add(path.id()));
        path.hosts().forEach(h -> byHost.computeIfAbsent(h, k -> new HashSet<>()).add(path.id()));
        return true;
    }

    /**
     * The recorded path that writes the same entries as {@code candidate}, in the same order, over the
     * same links for the same hosts, and still owns every one of them; null if there is none. Cookies
     * are not compared: the candidate's are its own new id's.
     */
    synchronized InstalledPath sameAs(InstalledPath candidate) {
        List<FlowEntry> wanted = candidate.entries();
        FlowEntry first = owners.get(wanted.get(0).tableKey());
        InstalledPath path = first == null ? null : paths.get(pathIdOf(first.cookie()));
        if (path == null || path.entries().size() != wanted.size() || !path.links().equals(candidate.links())
                || !path.hosts().equals(candidate.hosts())) {
            return null;
        }
        Set<FlowEntry> live = liveEntries.get(path.id());
        for (int i = 0; i < wanted.size(); i++) {
            FlowEntry entry = path.entries().get(i);
            if (!entry.sameFlowAs(wanted.get(i)) || !live.contains(entry)) {
                return null;
            }
        }
        return path;
    }

    /**
     * Whether a path may be recorded now; false, counted as a refusal, at {@code maxPaths}. The caller
     * then builds no path; {@link #add} checks again, since another thread may take the last room.
     */
    synchronized boolean hasRoom(int maxPaths) {
        if (paths.size() < maxPaths) {
            return true;
        }
        refused++;
        return false;
    }

    /** Paths refused at the bound since the registry was made. */
    synchronized long refused() {
        return refused;
    }

    /** The recorded entry with this key, whichever path owns it; null if none. */
    synchronized FlowEntry entryAt(FlowEntry.TableKey key) {
        return owners.get(key);
    }

    /** Runs {@code action} if the path is still recorded, holding off its removal meanwhile; says whether it ran. */
    synchronized boolean ifPresent(long pathId, Runnable action) {
        if (!paths.containsKey(pathId)) {
            return false;
        }
        action.run();
        return true;
    }

    /** Forgets the paths that send over this link; answers their entries still on switches. */
    synchronized List<FlowEntry> removeUsing(Link link) {
        return removeAll(byLink.get(link));
    }

    /** Forgets the paths with an entry on this switch; answers their entries still on switches. */
    synchronized List<FlowEntry> removeThrough(DatapathId dpid) {
        return removeAll(bySwitch.get(dpid));
    }

    /** Forgets the paths to or from this host; answers their entries still on switches. */
    synchronized List<FlowEntry> removeFor(HostKey host) {
        return removeAll(byHost.get(host));
    }

    /** Forgets one path; answers its entries still on switches. */
    synchronized List<FlowEntry> remove(long pathId) {
        return removeAll(List.of(pathId));
    }

    /** The switch removed this entry (timeout or delete): the path no longer owns it. */
    synchronized void flowRemoved(DatapathId dpid, U64 cookie) {
        FlowEntry entry = byCookie.get(new CookieKey(dpid, cookie));
        if (entry != null) {
            owners.remove(entry.tableKey(), entry);
            disown(entry);
        }
    }

    synchronized int size() {
        return paths.size();
    }

    synchronized List<InstalledPath> paths() {
        return List.copyOf(paths.values());
    }

    /** The ids of the paths sending over this link, for tests and diagnostics. */
    synchronized Set<Long> pathsUsing(Link link) {
        return Set.copyOf(byLink.getOrDefault(link, Set.of()));
    }

    synchronized void clear() {
        paths.clear();
        liveEntries.clear();
        owners.clear();
        byCookie.clear();
        byLink.clear();
        bySwitch.clear();
        byHost.clear();
    }

    private List<FlowEntry> removeAll(Collection<Long> ids) {
        if (ids == null || ids.isEmpty()) {
            return List.of();
        }
        List<FlowEntry> doomed = new ArrayList<>();
        for (long id : List.copyOf(ids)) {
            Set<FlowEntry> live = liveEntries.get(id);
            if (live != null) {
                for (FlowEntry entry : live) {
                    owners.remove(entry.tableKey(), entry);
                    byCookie.remove(new CookieKey(entry.dpid(), entry.cookie()), entry);
                    doomed.add(entry);
                }
            }
            forget(id);
        }
        return doomed;
    }

    /** The entry is no longer its path's; a path left with nothing is forgotten. */
    private void disown(FlowEntry entry) {
        byCookie.remove(new CookieKey(entry.dpid(), entry.cookie()), entry);
        long id = pathIdOf(entry.cookie());
        Set<FlowEntry> live = liveEntries.get(id);
        if (live != null && live.remove(entry) && live.isEmpty()) {
            forget(id);
        }
    }

    private void forget(long id) {
        InstalledPath path = paths.remove(id);
        liveEntries.remove(id);
        if (path == null) {
            return;
        }
        path.links().forEach(l -> unindex(byLink, l, id));
        path.switches().forEach(s -> unindex(bySwitch, s, id));
        path.hosts().forEach(h -> unindex(byHost, h, id));
    }

    private static <K> void unindex(Map<K, Set<Long>> index, K key, long id) {
        Set<Long> ids = index.get(key);
        if (ids != null && ids.remove(id) && ids.isEmpty()) {
            index.remove(key);
        }
    }

    private record CookieKey(DatapathId dpid, U64 cookie) {
    }
}
