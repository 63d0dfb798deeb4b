package io.heliograph.staticflows.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.cluster.SharedStore.Versioned;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.MeterEntry;
import io.heliograph.staticflows.StaticEntry;

/**
 * Brings the entry file of a controller from before the cluster into the shared store, once. The
 * file is imported when the store holds no entries, or only entries of this file (an import that
 * was cut short); then it is moved aside ({@code entries.json.imported-<time>}) and never read again:
 * the store is the one source of truth. When the store already holds other entries, the cluster's
 * entries win and the file is moved aside as {@code not-imported}. A store that cannot be reached
 * fails the import with the file left in place, so the next attempt does it.
 */
final class LegacyImport {

    private static final Logger LOG = LoggerFactory.getLogger(LegacyImport.class);

    /** What happened: how many entries were imported, the problems met, and where the file went (null if nowhere). */
    record Outcome(int imported, List<String> problems, String movedTo) {
    }

    private LegacyImport() {
    }

    /** Imports the file if there is one; throws StoreUnavailableException, with the file untouched, if the store is away. */
    static Outcome run(EntryFile file, EntryStore store) {
        if (!file.exists()) {
            return new Outcome(0, List.of(), null);
        }
        EntryFile.Contents contents = file.load();
        List<String> problems = new ArrayList<>(contents.problems());
        List<StaticEntry> valid = validEntries(contents.entries(), file, problems);
        if (!file.exists()) {
            // load() moved a file it could not read aside, and said where
            problems.forEach(p -> LOG.error("Static entries: {}", p));
            return new Outcome(0, problems, null);
        }

        Map<String, byte[]> fromFile = new LinkedHashMap<>();
        valid.forEach(e -> fromFile.put(EntryStore.key(e.dpid(), e.name()), EntryStore.encode(e)));
        Map<String, Versioned> stored = store.entries();
        boolean onlyOurs = stored.values().stream()
                .allMatch(v -> fromFile.containsKey(v.key()) && Arrays.equals(fromFile.get(v.key()), v.value()));
        if (!onlyOurs) {
            String aside = file.moveAside("not-imported");
            LOG.warn("Static entries: {} is not imported: the cluster's store already holds {} entries of its own, "
                    + "which are the static entries now; the file is kept as {}", file.path(), stored.size(), aside);
            return new Outcome(0, problems, aside);
        }

        int imported = 0;
        for (StaticEntry e : valid) {
            if (store.create(e)) {
                imported++;
            }
        }
        contents.owned().forEach((dpid, ids) -> {
            if (!ids.isEmpty()) {
                store.updateOwned(dpid, current -> {
                    OwnedIds merged = current.copy();
                    merged.groups().addAll(ids.groups());
                    merged.meters().addAll(ids.meters());
                    return merged;
                });
            }
        });
        String aside = file.moveAside("imported");
        problems.forEach(p -> LOG.error("Static entries: {}", p));
        LOG.info("Static entries: imported {} entries from {} into the cluster's shared store ({} were there from an "
                + "earlier attempt); the store is their source of truth now, and the file is kept as {}",
                imported, file.path(), valid.size() - imported, aside);
        return new Outcome(imported, problems, aside);
    }

    /**
     * The entries that may be stored: one per name and switch, each valid with the groups and meters
     * of its switch (groups and meters are checked first, so a flow is checked against those kept).
     */
    private static List<StaticEntry> validEntries(List<StaticEntry> read, EntryFile file, List<String> problems) {
        Map<DatapathId, Map<String, StaticEntry>> bySwitch = new LinkedHashMap<>();
        for (StaticEntry e : read) {
            if (bySwitch.computeIfAbsent(e.dpid(), d -> new LinkedHashMap<>()).putIfAbsent(e.name(), e) != null) {
                problems.add("entry '" + e.name() + "' of switch " + e.dpid() + " in " + file.path()
                        + " is not imported: a second entry with that name (the first is kept)");
            }
        }
        for (int pass = 0; pass < 2; pass++) {
            for (Map<String, StaticEntry> perSwitch : bySwitch.values()) {
                for (StaticEntry e : List.copyOf(perSwitch.values())) {
                    if ((pass == 0) == (e instanceof FlowEntry)) {
                        continue;
                    }
                    List<String> found = EntryValidator.validate(e, SwitchView.UNKNOWN, definitions(perSwitch));
                    if (!found.isEmpty()) {
                        perSwitch.remove(e.name());
                        problems.add("entry '" + e.name() + "' of switch " + e.dpid() + " in " + file.path()
                                + " is not imported: " + String.join("; ", found));
                    }
                }
            }
        }
        List<StaticEntry> valid = new ArrayList<>();
        bySwitch.values().forEach(m -> valid.addAll(m.values()));
        return valid;
    }

    private static EntryValidator.Definitions definitions(Map<String, StaticEntry> entries) {
        Set<Long> groups = new HashSet<>();
        Set<Long> meters = new HashSet<>();
        for (StaticEntry e : entries.values()) {
            if (e instanceof GroupEntry g) {
                groups.add(g.groupId());
            } else if (e instanceof MeterEntry m) {
                meters.add(m.meterId());
            }
        }
        return new EntryValidator.Definitions(groups, meters);
    }
}
