package io.heliograph.staticflows.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.core.cluster.SharedStore.Versioned;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.MeterEntry;
import io.heliograph.staticflows.StaticEntry;

/**
 * This instance's mirror of what the cluster's shared store holds ({@link EntryStore}): the static
 * entries of every switch, and the group and meter ids the app owns on each, as the start read them
 * and the watch brings their changes. What the entries allow is decided against it (duplicate group
 * and meter ids, references to groups and meters no entry defines), and the owned ids recorded after
 * a switch confirms are written through it, so the store and the mirror change together.
 *
 * <p>It knows nothing of switches. Its own lock guards its maps: it is read by validation on the
 * callers' threads, written by the store's watch and by the app's thread, and never calls out while
 * holding the lock, so a caller may hold its own lock around a call ({@link SwitchApplier} does, so
 * an entry's definition and its state on the switch change together: its lock, then this one, never
 * the other way round).
 */
final class StoredEntries {

    private static final Logger LOG = LoggerFactory.getLogger(StoredEntries.class);

    /** An entry as the store holds it. */
    record Stored(StaticEntry entry, Versioned value) {
        /** Whether this is exactly the stored value {@code other}: same version, same bytes. */
        boolean isValue(Versioned other) {
            return value.version() == other.version() && Arrays.equals(value.value(), other.value());
        }
    }

    /**
     * What a changed value did to the mirror: the entry it replaced (null for a new one) and the entry
     * now, and whether the mirror was complete (started) when it changed, so the change is applied.
     */
    record Change(Stored previous, Stored now, boolean complete) {
    }

    /** What a removed key took out of the mirror (null: it held no entry there), and whether the mirror was complete. */
    record Removal(Stored previous, boolean complete) {
    }

    /** A switch's owned ids as stored. */
    private record OwnedVersion(long version, OwnedIds ids) {
    }

    private final EntryStore store;
    // Guarded by this.
    private final Map<DatapathId, Map<String, Stored>> entries = new TreeMap<>();
    private final Map<DatapathId, OwnedVersion> owned = new HashMap<>();
    /** Keys the watch removed before the start read the store, so the read does not bring them back. */
    private final Set<String> removedWhileStarting = new HashSet<>();
    private boolean complete;

    StoredEntries(EntryStore store) {
        this.store = store;
    }

    // ---- filling ----

    /**
     * The start's read of the store, after the watches were opened: what the watch has not brought yet
     * (nor removed meanwhile) is added, and the mirror is complete from now on.
     */
    synchronized void load(Map<String, Versioned> now, Map<String, Versioned> ownedNow) {
        for (Versioned v : now.values()) {
            if (!removedWhileStarting.contains(v.key()) && stored(v.key()) == null) {
                remember(v);
            }
        }
        ownedNow.values().forEach(this::rememberOwned);
        removedWhileStarting.clear();
        complete = true;
        LOG.info("Static entries: {} in the cluster's shared store", entries.values().stream().mapToInt(Map::size).sum());
    }

    /** The app stopped: changes are still mirrored but no longer applied. */
    synchronized void stop() {
        complete = false;
    }

    /** Whether the start has read the store, so the mirror holds every entry. */
    synchronized boolean isComplete() {
        return complete;
    }

    /**
     * A stored value changed: null when it changes nothing (the mirror has exactly this value already,
     * from the start's read or a repeated notice) or names no entry (logged; the mirror keeps what it had).
     */
    synchronized Change changed(Versioned value) {
        Stored previous = stored(value.key());
        if (previous != null && previous.isValue(value)) {
            return null;
        }
        Stored now = remember(value);
        return now == null ? null : new Change(previous, now, complete);
    }

    /** A stored key was removed. */
    synchronized Removal removed(String key) {
        Stored previous = stored(key);
        if (!complete) {
            removedWhileStarting.add(key);
        }
        if (previous != null) {
            entries.get(previous.entry().dpid()).remove(previous.entry().name());
        }
        return new Removal(previous, complete);
    }

    /** The mirror's entry at a store key; null for none, or for a key that names no entry. */
    private Stored stored(String key) {
        int at = key.indexOf('@', EntryStore.ENTRIES.length() + 1);
        if (!key.startsWith(EntryStore.ENTRIES + "/") || at < 0) {
            return null;
        }
        DatapathId dpid;
        try {
            dpid = DatapathId.of(key.substring(EntryStore.ENTRIES.length() + 1, at));
        } catch (IllegalArgumentException e) {
            return null;
        }
        return entries.getOrDefault(dpid, Map.of()).get(key.substring(at + 1));
    }

    /** Puts a stored entry in the mirror; null (logged) when the value is not an entry. */
    private Stored remember(Versioned value) {
        StaticEntry entry;
        try {
            entry = EntryStore.decode(value);
        } catch (IllegalArgumentException e) {
            LOG.error("Static entries: {} in the shared store is not an entry ({}); ignored", value.key(), e.getMessage());
            return null;
        }
        Stored stored = new Stored(entry, value);
        entries.computeIfAbsent(entry.dpid(), d -> new LinkedHashMap<>()).put(entry.name(), stored);
        return stored;
    }

    // ---- the owned ids ----

    /** A newer stored value of a switch's owned ids (values of one key only grow in version). */
    synchronized void rememberOwned(Versioned value) {
        try {
            DatapathId dpid = EntryStore.installedSwitch(value.key());
            OwnedVersion known = owned.get(dpid);
            if (known == null || known.version() < value.version()) {
                owned.put(dpid, new OwnedVersion(value.version(), EntryStore.decodeOwned(value.value())));
            }
        } catch (IllegalArgumentException e) {
            LOG.error("Static entries: {} in the shared store cannot be read ({}); ignored", value.key(), e.getMessage());
        }
    }

    synchronized void forgetOwned(String key) {
        owned.remove(EntryStore.installedSwitch(key));
    }

    /** A copy of the ids the app owns on the switch; empty when none are recorded. */
    synchronized OwnedIds owned(DatapathId dpid) {
        OwnedVersion o = owned.get(dpid);
        return o == null ? new OwnedIds() : o.ids().copy();
    }

    /**
     * Records a change of the switch's owned ids in the store, and in the mirror at once; a store out
     * of reach is logged (the next reconciliation records what it finds). Not under this lock: it
     * waits for the store.
     */
    void updateOwned(DatapathId dpid, Consumer<OwnedIds> change) {
        try {
            Versioned written = store.updateOwned(dpid, ids -> {
                OwnedIds next = ids.copy();
                change.accept(next);
                return next;
            });
            rememberOwned(written);
        } catch (StoreUnavailableException e) {
            LOG.warn("Static entries: cannot record the groups and meters installed on {} in the shared store ({})",
                    dpid, e.getMessage());
        }
    }

    // ---- reading ----

    /** The entries of a switch by name, as defined now (a copy). */
    synchronized Map<String, StaticEntry> of(DatapathId dpid) {
        Map<String, StaticEntry> defined = new LinkedHashMap<>();
        entries.getOrDefault(dpid, Map.of()).forEach((name, s) -> defined.put(name, s.entry()));
        return defined;
    }

    /** The stored entry of a switch by that name; null for none. */
    synchronized Stored get(DatapathId dpid, String name) {
        return entries.getOrDefault(dpid, Map.of()).get(name);
    }

    /** A copy of the whole mirror, by switch. */
    synchronized Map<DatapathId, Map<String, Stored>> view() {
        Map<DatapathId, Map<String, Stored>> view = new TreeMap<>();
        entries.forEach((dpid, named) -> view.put(dpid, new LinkedHashMap<>(named)));
        return view;
    }

    /** Whether the mirror still defines exactly this entry. */
    synchronized boolean isCurrent(StaticEntry entry) {
        Stored s = get(entry.dpid(), entry.name());
        return s != null && entry.equals(s.entry());
    }

    // ---- what the entries allow ----

    /**
     * What is wrong with adding (or replacing) {@code entry} on a switch seen as {@code view}: the
     * entry's own problems, an id another entry of the switch defines, and entries left pointing at a
     * group or meter it no longer defines.
     */
    synchronized List<String> problems(StaticEntry entry, SwitchView view) {
        List<String> problems = new ArrayList<>(EntryValidator.validate(entry, view, definitions(entry.dpid(), entry, null)));
        Map<String, StaticEntry> others = of(entry.dpid());
        others.remove(entry.name());
        for (StaticEntry other : others.values()) {
            if (entry instanceof GroupEntry g && other instanceof GroupEntry o && g.groupId() == o.groupId()) {
                problems.add("group_id " + g.groupId() + " is already defined by group '" + o.name() + "' on this switch");
            }
            if (entry instanceof MeterEntry m && other instanceof MeterEntry o && m.meterId() == o.meterId()) {
                problems.add("meter_id " + m.meterId() + " is already defined by meter '" + o.name() + "' on this switch");
            }
        }
        problems.addAll(danglingReferences(entry.dpid(), entry, null));
        return problems;
    }

    /**
     * Why the switch's entry {@code name} cannot be deleted: null when the switch has no such entry,
     * else the entries that would be left pointing at its group or meter (empty: it can).
     */
    synchronized List<String> deletionProblems(DatapathId dpid, String name) {
        return get(dpid, name) == null ? null : danglingReferences(dpid, null, name);
    }

    /** An entry's problems on a switch seen as {@code view}, against the group and meter ids defined now. */
    synchronized List<String> validate(StaticEntry entry, SwitchView view) {
        return EntryValidator.validate(entry, view, definitions(entry.dpid(), null, null));
    }

    /** The group and meter ids of a switch once {@code added} replaces its namesake and {@code removed} is gone. */
    private EntryValidator.Definitions definitions(DatapathId dpid, StaticEntry added, String removed) {
        Set<Long> groups = new HashSet<>();
        Set<Long> meters = new HashSet<>();
        Map<String, StaticEntry> after = of(dpid);
        if (removed != null) {
            after.remove(removed);
        }
        if (added != null) {
            after.put(added.name(), added);
        }
        for (StaticEntry e : after.values()) {
            if (e instanceof GroupEntry g) {
                groups.add(g.groupId());
            } else if (e instanceof MeterEntry m) {
                meters.add(m.meterId());
            }
        }
        return new EntryValidator.Definitions(groups, meters);
    }

    /** Other entries that would point at a group or meter no longer defined after the change. */
    private List<String> danglingReferences(DatapathId dpid, StaticEntry added, String removed) {
        EntryValidator.Definitions defs = definitions(dpid, added, removed);
        List<String> problems = new ArrayList<>();
        for (StaticEntry e : of(dpid).values()) {
            if ((added != null && e.name().equals(added.name())) || e.name().equals(removed)) {
                continue;
            }
            for (long id : groupRefs(e)) {
                if (!defs.groups().contains(id)) {
                    problems.add(e.kind() + " '" + e.name() + "' uses group " + id + "; change or delete it first");
                }
            }
            if (e instanceof FlowEntry f && f.meter() != null && !defs.meters().contains(f.meter())) {
                problems.add("flow '" + e.name() + "' uses meter " + f.meter() + "; change or delete it first");
            }
        }
        return problems;
    }

    private static Set<Long> groupRefs(StaticEntry e) {
        Set<Long> ids = new HashSet<>();
        if (e instanceof FlowEntry f) {
            ids.addAll(Reconciler.groupsUsed(f.applyActions()));
            ids.addAll(Reconciler.groupsUsed(f.writeActions()));
        } else if (e instanceof GroupEntry g) {
            ids.addAll(GroupOrder.dependencies(g));
        }
        return ids;
    }
}
