package io.heliograph.staticflows.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.Versioned;
import io.heliograph.core.json.Json;
import io.heliograph.staticflows.StaticEntry;

/**
 * Where the static entries live in the cluster's {@link SharedStore}, and how they are written there:
 * <ul>
 * <li>{@code staticflows/entries/<dpid>@<name>}: one entry, as the JSON object of {@link EntryCodec}
 * (Floodlight's names). Names are unique per switch only, so the key carries both; a valid name is a
 * valid key segment, and a dpid has no '@'.</li>
 * <li>{@code staticflows/installed/<dpid>}: {@code {"groups": [..], "meters": [..]}}, the group and
 * meter ids the app has put on the switch, so whichever instance masters it next can remove the ones
 * no longer defined.</li>
 * </ul>
 */
final class EntryStore {

    static final String ENTRIES = "staticflows/entries";
    static final String INSTALLED = "staticflows/installed";

    private final SharedStore store;

    EntryStore(SharedStore store) {
        this.store = store;
    }

    SharedStore shared() {
        return store;
    }

    static String key(DatapathId dpid, String name) {
        return ENTRIES + "/" + dpid + "@" + name;
    }

    static String installedKey(DatapathId dpid) {
        return INSTALLED + "/" + dpid;
    }

    /** The switch whose owned ids a key of {@link #INSTALLED} holds. */
    static DatapathId installedSwitch(String key) {
        return DatapathId.of(key.substring(INSTALLED.length() + 1));
    }

    static byte[] encode(StaticEntry entry) {
        return Json.pretty(EntryCodec.toJson(entry)).getBytes(StandardCharsets.UTF_8);
    }

    /** The entry a stored value holds; IllegalArgumentException naming the problem when it holds none. */
    static StaticEntry decode(Versioned value) {
        Object parsed = Json.parse(value.value());
        if (!(parsed instanceof Map)) {
            throw new IllegalArgumentException("the value of " + value.key() + " is not a JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) parsed;
        StaticEntry entry = EntryCodec.fromJson(m);
        if (!key(entry.dpid(), entry.name()).equals(value.key())) {
            throw new IllegalArgumentException("the value of " + value.key() + " is entry '" + entry.name()
                    + "' of switch " + entry.dpid() + ", which belongs at " + key(entry.dpid(), entry.name()));
        }
        return entry;
    }

    static byte[] encode(OwnedIds ids) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("groups", new ArrayList<Object>(ids.groups()));
        m.put("meters", new ArrayList<Object>(ids.meters()));
        return Json.pretty(m).getBytes(StandardCharsets.UTF_8);
    }

    static OwnedIds decodeOwned(byte[] value) {
        Object parsed = Json.parse(value);
        if (!(parsed instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("not a JSON object");
        }
        return new OwnedIds(ids(m.get("groups")), ids(m.get("meters")));
    }

    private static TreeSet<Long> ids(Object list) {
        TreeSet<Long> ids = new TreeSet<>();
        if (list instanceof List<?> l) {
            for (Object id : l) {
                if (!(id instanceof Long n)) {
                    throw new IllegalArgumentException("id " + id + " is not an integer");
                }
                ids.add(n);
            }
        }
        return ids;
    }

    // ---- writes ----

    /** Writes an entry, whatever was there. */
    Versioned put(StaticEntry entry) {
        return store.put(key(entry.dpid(), entry.name()), encode(entry));
    }

    /** Writes an entry only where no entry of that name exists yet; false when one does. */
    boolean create(StaticEntry entry) {
        return store.replace(key(entry.dpid(), entry.name()), Versioned.ABSENT, encode(entry)).isPresent();
    }

    boolean delete(DatapathId dpid, String name) {
        return store.delete(key(dpid, name));
    }

    /**
     * Puts {@code previous} back (or deletes the key when there was none) if the key still holds
     * {@code written}: a later write by anyone else is kept.
     */
    void revert(String key, byte[] written, byte[] previous) {
        store.update(key, current -> current != null && Arrays.equals(current, written) ? previous : current);
    }

    /**
     * Changes the owned ids of a switch atomically; returns the value written. A value that cannot be
     * read counts as none: the ids are a clean-up aid, and the next reconciliation finds what is ours.
     */
    Versioned updateOwned(DatapathId dpid, UnaryOperator<OwnedIds> change) {
        Optional<Versioned> written = store.update(installedKey(dpid), current -> {
            OwnedIds before = new OwnedIds();
            if (current != null) {
                try {
                    before = decodeOwned(current);
                } catch (IllegalArgumentException e) {
                    // overwritten below
                }
            }
            return encode(change.apply(before));
        });
        return written.orElseThrow();
    }

    /** Every stored entry, by key (the watch tells changes; this is for a start and for the import). */
    Map<String, Versioned> entries() {
        return store.list(ENTRIES);
    }

    /** Every switch's owned ids as stored. */
    Map<String, Versioned> owned() {
        return store.list(INSTALLED);
    }
}
