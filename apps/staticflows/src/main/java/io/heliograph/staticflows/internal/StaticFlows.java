package io.heliograph.staticflows.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;

import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.OFSwitch;
import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.MeterEntry;
import io.heliograph.staticflows.Result;
import io.heliograph.staticflows.StaticEntry;
import io.heliograph.staticflows.StaticFlowService;

/**
 * The static entries: validated, stored on disk, pushed to connected switches, and reconciled when
 * a switch connects. Plain Java: the switches come from a lookup function, ERROR messages through
 * {@link #onError}, so it runs the same in unit tests as in the controller.
 */
public final class StaticFlows implements StaticFlowService {

    private static final Logger LOG = LoggerFactory.getLogger(StaticFlows.class);

    private final EntryFile file;
    private final Function<DatapathId, OFSwitch> switches;
    private final Pusher pusher = new Pusher();
    private final Reconciler reconciler;
    private final Executor executor;

    // Guarded by this.
    private final Map<DatapathId, Map<String, StaticEntry>> entries = new TreeMap<>();
    private final Map<DatapathId, EntryFile.Owned> owned = new TreeMap<>();
    private final Map<DatapathId, Map<String, Reconciler.Outcome>> states = new TreeMap<>();
    private final List<String> loadProblems = new ArrayList<>();

    /**
     * @param executor runs what follows a switch's answer (bookkeeping and saving the file), so the
     *                 switch's I/O thread never waits for the disk
     */
    public StaticFlows(EntryFile file, Function<DatapathId, OFSwitch> switches, boolean removeStale, Executor executor) {
        this.file = file;
        this.switches = switches;
        this.reconciler = new Reconciler(pusher, removeStale);
        this.executor = executor;
    }

    /** Reads the entry file. Problems are logged and kept for {@link #loadProblems()}; nothing is dropped silently. */
    public synchronized void load() {
        EntryFile.Contents contents = file.load();
        loadProblems.clear();
        loadProblems.addAll(contents.problems());
        entries.clear();
        owned.clear();
        owned.putAll(contents.owned());
        for (StaticEntry e : contents.entries()) {
            if (entriesOf(e.dpid()).putIfAbsent(e.name(), e) != null) {
                loadProblems.add("entry '" + e.name() + "' of switch " + e.dpid() + " in " + file.path()
                        + " is not loaded: a second entry with that name (the first is kept)");
            }
        }
        // Meters and groups first: flows are checked against the groups and meters that were loaded.
        for (int pass = 0; pass < 2; pass++) {
            for (Map<String, StaticEntry> perSwitch : entries.values()) {
                for (StaticEntry e : List.copyOf(perSwitch.values())) {
                    if ((pass == 0) == (e instanceof FlowEntry)) {
                        continue;
                    }
                    List<String> problems = EntryValidator.validate(e, SwitchView.UNKNOWN, definitions(e.dpid(), null, null));
                    if (!problems.isEmpty()) {
                        perSwitch.remove(e.name());
                        loadProblems.add("entry '" + e.name() + "' of switch " + e.dpid() + " in " + file.path()
                                + " is not loaded: " + String.join("; ", problems));
                    }
                }
            }
        }
        if (!loadProblems.isEmpty() && java.nio.file.Files.exists(file.path())) {
            // Some of the file was not loaded; the next save rewrites it, so keep it as it was.
            loadProblems.add("the file as it was is kept at " + file.keepCopy());
        }
        for (String p : loadProblems) {
            LOG.error("Static entries: {}", p);
        }
        LOG.info("Static entries: {} loaded from {}", count(), file.path());
    }

    public synchronized List<String> loadProblems() {
        return List.copyOf(loadProblems);
    }

    private int count() {
        return entries.values().stream().mapToInt(Map::size).sum();
    }

    private Map<String, StaticEntry> entriesOf(DatapathId dpid) {
        return entries.computeIfAbsent(dpid, d -> new LinkedHashMap<>());
    }

    // ---- validation ----

    @Override
    public synchronized List<String> validate(StaticEntry entry) {
        return problems(entry, switches.apply(entry.dpid()));
    }

    private List<String> problems(StaticEntry entry, OFSwitch sw) {
        List<String> problems = new ArrayList<>(EntryValidator.validate(entry, SwitchView.of(sw),
                definitions(entry.dpid(), entry, null)));
        Map<String, StaticEntry> others = new LinkedHashMap<>(entriesOf(entry.dpid()));
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

    /** The group and meter ids of a switch once {@code added} replaces its namesake and {@code removed} is gone. */
    private EntryValidator.Definitions definitions(DatapathId dpid, StaticEntry added, String removed) {
        Set<Long> groups = new HashSet<>();
        Set<Long> meters = new HashSet<>();
        Map<String, StaticEntry> after = new LinkedHashMap<>(entriesOf(dpid));
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
        for (StaticEntry e : entriesOf(dpid).values()) {
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

    // ---- add and delete ----

    @Override
    public CompletionStage<Result> add(StaticEntry entry) {
        OFSwitch sw;
        StaticEntry previous;
        synchronized (this) {
            sw = switches.apply(entry.dpid());
            List<String> problems = problems(entry, sw);
            if (!problems.isEmpty()) {
                LOG.info("Static entry {} for {} refused: {}", entry.name(), entry.dpid(), String.join("; ", problems));
                return CompletableFuture.completedFuture(Result.refused(problems));
            }
            previous = entriesOf(entry.dpid()).put(entry.name(), entry);
            try {
                save();
            } catch (IOException e) {
                restore(entry.dpid(), entry.name(), previous);
                return CompletableFuture.completedFuture(Result.failed("cannot save " + file.path() + ": " + e));
            }
            setState(entry.dpid(), entry.name(), EntryStatus.State.PENDING, "");
            if (sw == null || !sw.isConnected()) {
                return CompletableFuture.completedFuture(Result.of(Result.Outcome.STORED));
            }
        }
        Translator t = new Translator(sw.getFactory());
        return pusher.push(sw, install(t, entry)).thenComposeAsync(refusals -> {
            List<String> errors = errors(refusals);
            if (!errors.isEmpty()) {
                synchronized (this) {
                    if (entriesOf(entry.dpid()).get(entry.name()) == entry) {
                        restore(entry.dpid(), entry.name(), previous);
                        saveQuietly();
                    }
                }
                LOG.warn("Static entry {} refused by switch {}: {}", entry.name(), entry.dpid(), String.join("; ", errors));
                return CompletableFuture.completedFuture(new Result(Result.Outcome.FAILED, errors));
            }
            List<Pusher.Op> cleanup = previous == null ? List.of() : retire(t, previous, entry);
            return pusher.push(sw, cleanup).handleAsync((r, e) -> {
                synchronized (this) {
                    if (entry instanceof GroupEntry g) {
                        ownedOf(entry.dpid()).groups().add(g.groupId());
                    } else if (entry instanceof MeterEntry m) {
                        ownedOf(entry.dpid()).meters().add(m.meterId());
                    }
                    if (previous instanceof GroupEntry g && !(entry instanceof GroupEntry ng && ng.groupId() == g.groupId())) {
                        ownedOf(entry.dpid()).groups().remove(g.groupId());
                    } else if (previous instanceof MeterEntry m && !(entry instanceof MeterEntry nm && nm.meterId() == m.meterId())) {
                        ownedOf(entry.dpid()).meters().remove(m.meterId());
                    }
                    if (entriesOf(entry.dpid()).get(entry.name()) == entry) {
                        setState(entry.dpid(), entry.name(), EntryStatus.State.INSTALLED, "");
                    }
                    saveQuietly();
                }
                return Result.of(Result.Outcome.INSTALLED);
            }, executor);
        }, executor).exceptionally(e -> {
            String why = "stored, but the switch did not confirm it: " + Errors.describe(e)
                    + "; it is installed when the switch reconnects";
            LOG.warn("Static entry {} on {}: {}", entry.name(), entry.dpid(), why);
            return new Result(Result.Outcome.STORED, List.of(why));
        });
    }

    @Override
    public CompletionStage<Result> delete(DatapathId dpid, String name) {
        OFSwitch sw;
        StaticEntry removed;
        synchronized (this) {
            removed = entriesOf(dpid).get(name);
            if (removed == null) {
                return CompletableFuture.completedFuture(new Result(Result.Outcome.NOT_FOUND,
                        List.of("switch " + dpid + " has no static entry '" + name + "'")));
            }
            List<String> problems = danglingReferences(dpid, null, name);
            if (!problems.isEmpty()) {
                return CompletableFuture.completedFuture(Result.refused(problems));
            }
            entriesOf(dpid).remove(name);
            try {
                save();
            } catch (IOException e) {
                entriesOf(dpid).put(name, removed);
                return CompletableFuture.completedFuture(Result.failed("cannot save " + file.path() + ": " + e));
            }
            Map<String, Reconciler.Outcome> s = states.get(dpid);
            if (s != null) {
                s.remove(name);
            }
            sw = switches.apply(dpid);
            if (sw == null || !sw.isConnected()) {
                // Groups and meters stay owned, so the next reconciliation removes them; flows carry the cookie.
                return CompletableFuture.completedFuture(Result.of(Result.Outcome.DELETED));
            }
        }
        Translator t = new Translator(sw.getFactory());
        return pusher.push(sw, retire(t, removed, null)).handleAsync((refusals, e) -> {
            List<String> notes = new ArrayList<>();
            if (e != null) {
                notes.add("the switch did not confirm the removal (" + Errors.describe(e) + "); it is removed when the switch reconnects");
            } else {
                notes.addAll(errors(refusals));
                synchronized (this) {
                    if (removed instanceof GroupEntry g) {
                        ownedOf(dpid).groups().remove(g.groupId());
                    } else if (removed instanceof MeterEntry m) {
                        ownedOf(dpid).meters().remove(m.meterId());
                    }
                    saveQuietly();
                }
            }
            return new Result(Result.Outcome.DELETED, notes);
        }, executor);
    }

    /** Messages that put an entry on a switch (or replace its namesake in place). */
    private static List<Pusher.Op> install(Translator t, StaticEntry entry) {
        List<Pusher.Op> ops = new ArrayList<>();
        if (entry instanceof FlowEntry f) {
            ops.add(new Pusher.Op(f.name(), "flow " + f.name(), t.flowAdd(f), false));
        } else if (entry instanceof GroupEntry g) {
            // Whether the group exists is not known here: ADD creates it, MODIFY updates it; one of them fails, as expected.
            ops.add(new Pusher.Op(g.name(), "group " + g.groupId() + " add", t.groupAdd(g), true));
            ops.add(new Pusher.Op(g.name(), "group " + g.groupId(), t.groupModify(g), false));
        } else if (entry instanceof MeterEntry m) {
            ops.add(new Pusher.Op(m.name(), "meter " + m.meterId() + " add", t.meterAdd(m), true));
            ops.add(new Pusher.Op(m.name(), "meter " + m.meterId(), t.meterModify(m), false));
        }
        return ops;
    }

    /** Messages that remove {@code old} from a switch, unless {@code replacement} took its place there. */
    private static List<Pusher.Op> retire(Translator t, StaticEntry old, StaticEntry replacement) {
        List<Pusher.Op> ops = new ArrayList<>();
        if (old instanceof FlowEntry f) {
            boolean samePlace = replacement instanceof FlowEntry r && FlowShape.of(t.flowAdd(r)).key()
                    .equals(FlowShape.of(t.flowAdd(f)).key());
            if (!samePlace) {
                ops.add(new Pusher.Op(null, "removal of flow " + f.name(), t.flowDelete(f), false));
            }
        } else if (old instanceof GroupEntry g) {
            if (!(replacement instanceof GroupEntry r && r.groupId() == g.groupId())) {
                ops.add(new Pusher.Op(null, "removal of group " + g.groupId(), t.groupDelete(g.groupId()), false));
            }
        } else if (old instanceof MeterEntry m) {
            if (!(replacement instanceof MeterEntry r && r.meterId() == m.meterId())) {
                ops.add(new Pusher.Op(null, "removal of meter " + m.meterId(), t.meterDelete(m.meterId()), false));
            }
        }
        return ops;
    }

    private static List<String> errors(List<Pusher.Refusal> refusals) {
        List<String> errors = new ArrayList<>();
        for (Pusher.Refusal r : refusals) {
            if (!r.op().mayFail()) {
                errors.add(r.describe());
            }
        }
        return errors;
    }

    private void restore(DatapathId dpid, String name, StaticEntry previous) {
        if (previous == null) {
            entriesOf(dpid).remove(name);
            Map<String, Reconciler.Outcome> s = states.get(dpid);
            if (s != null) {
                s.remove(name);
            }
        } else {
            entriesOf(dpid).put(name, previous);
        }
    }

    // ---- switches ----

    /**
     * Installs and reconciles a switch's entries; for the switch initializer. Entries the switch's
     * version or ports cannot carry are marked UNSUPPORTED with the reason and not sent. Never fails:
     * a problem with static entries must not keep a switch from connecting.
     */
    public CompletionStage<Void> reconcile(OFSwitch sw) {
        DatapathId dpid = sw.getId();
        List<StaticEntry> valid = new ArrayList<>();
        EntryFile.Owned ownedNow;
        synchronized (this) {
            SwitchView view = SwitchView.of(sw);
            for (StaticEntry e : entriesOf(dpid).values()) {
                List<String> problems = EntryValidator.validate(e, view, definitions(dpid, null, null));
                if (problems.isEmpty()) {
                    valid.add(e);
                } else {
                    setState(dpid, e.name(), EntryStatus.State.UNSUPPORTED, String.join("; ", problems));
                    LOG.warn("Static entry {} not installed on {}: {}", e.name(), dpid, String.join("; ", problems));
                }
            }
            ownedNow = ownedOf(dpid).copy();
        }
        return reconciler.reconcile(sw, valid, ownedNow).thenAcceptAsync(report -> {
            synchronized (this) {
                report.outcomes().forEach((name, outcome) -> {
                    if (entriesOf(dpid).containsKey(name)) {
                        setState(dpid, name, outcome.state(), outcome.detail());
                    }
                });
                EntryFile.Owned current = ownedOf(dpid);
                if (!current.equals(report.owned())) {
                    current.groups().retainAll(report.owned().groups());
                    current.meters().retainAll(report.owned().meters());
                    current.groups().addAll(report.owned().groups());
                    current.meters().addAll(report.owned().meters());
                    saveQuietly();
                }
            }
            report.problems().forEach(p -> LOG.warn("Static entries on {}: {}", dpid, p));
            long failed = report.outcomes().values().stream().filter(o -> o.state() == EntryStatus.State.FAILED).count();
            LOG.info("Static entries on {}: {} in place, {} pushed, {} stale removed, {} failed", dpid,
                    report.unchanged(), report.added(), report.removed(), failed);
        }, executor).exceptionally(e -> {
            LOG.warn("Static entries on {}: reconciliation failed", dpid, e);
            return null;
        });
    }

    /** True when some entry of the switch could not be installed because of its ports or version. */
    public synchronized boolean hasUnsupported(DatapathId dpid) {
        return states.getOrDefault(dpid, Map.of()).values().stream()
                .anyMatch(o -> o.state() == EntryStatus.State.UNSUPPORTED);
    }

    /** The switch is gone: its entries wait for it to come back. */
    public synchronized void switchRemoved(DatapathId dpid) {
        Map<String, Reconciler.Outcome> s = states.get(dpid);
        if (s != null) {
            s.replaceAll((name, o) -> new Reconciler.Outcome(EntryStatus.State.PENDING, ""));
        }
    }

    /** Offers an ERROR from a switch; true when it answers one of our pushes. */
    public boolean onError(OFSwitch sw, org.projectfloodlight.openflow.protocol.OFErrorMsg error) {
        return pusher.onError(sw, error);
    }

    // ---- listing ----

    @Override
    public synchronized List<EntryStatus> list(DatapathId dpid) {
        List<StaticEntry> sorted = new ArrayList<>(entriesOf(dpid).values());
        sorted.sort(ORDER);
        List<EntryStatus> out = new ArrayList<>();
        for (StaticEntry e : sorted) {
            Reconciler.Outcome o = states.getOrDefault(dpid, Map.of()).get(e.name());
            out.add(o == null ? new EntryStatus(e, EntryStatus.State.PENDING, "") : new EntryStatus(e, o.state(), o.detail()));
        }
        return out;
    }

    @Override
    public synchronized List<EntryStatus> list() {
        List<EntryStatus> out = new ArrayList<>();
        for (DatapathId dpid : entries.keySet()) {
            out.addAll(list(dpid));
        }
        return out;
    }

    /** Meters, then groups, then flows by table and descending priority, then by name. */
    private static final Comparator<StaticEntry> ORDER = Comparator
            .comparingInt((StaticEntry e) -> e instanceof MeterEntry ? 0 : e instanceof GroupEntry ? 1 : 2)
            .thenComparingInt(e -> e instanceof FlowEntry f ? f.table() : 0)
            .thenComparingInt(e -> e instanceof FlowEntry f ? -f.priority() : 0)
            .thenComparing(StaticEntry::name);

    // ---- state and disk ----

    private EntryFile.Owned ownedOf(DatapathId dpid) {
        return owned.computeIfAbsent(dpid, d -> new EntryFile.Owned());
    }

    private void setState(DatapathId dpid, String name, EntryStatus.State state, String detail) {
        states.computeIfAbsent(dpid, d -> new LinkedHashMap<>()).put(name, new Reconciler.Outcome(state, detail));
    }

    private void save() throws IOException {
        List<StaticEntry> all = new ArrayList<>();
        entries.values().forEach(m -> all.addAll(m.values()));
        file.save(all, owned);
    }

    private void saveQuietly() {
        try {
            save();
        } catch (IOException e) {
            LOG.error("Static entries: cannot save {}: {}", file.path(), e.toString());
        }
    }

    /** For the shell: the entries' text form. */
    static String describe(StaticEntry e) {
        return e.toString();
    }

    static String actions(List<Action> actions) {
        return Action.format(actions);
    }
}
