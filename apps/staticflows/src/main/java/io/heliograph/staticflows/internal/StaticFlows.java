package io.heliograph.staticflows.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadRequestErrorMsg;
import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;
import io.heliograph.core.cluster.SharedStore.StoreListener;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.core.cluster.SharedStore.Versioned;
import io.heliograph.core.cluster.SharedStore.Watch;
import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.MeterEntry;
import io.heliograph.staticflows.Reconciliation;
import io.heliograph.staticflows.Result;
import io.heliograph.staticflows.StaticEntry;
import io.heliograph.staticflows.StaticFlowService;

/**
 * The static entries of the cluster: validated, kept in the cluster's shared store (the one source
 * of truth, see {@link EntryStore}), and put on the switches this instance writes to.
 *
 * <p>Every instance watches the store and its view follows it; whatever instance an entry was
 * written through, each instance applies the change to the switches it writes to: those where its
 * role is not SLAVE (MASTER in a cluster, EQUAL when no roles are used). A SLAVE never writes. When an
 * instance starts writing to a switch (it connects, or becomes its master) the switch is reconciled
 * with the entries ({@link #reconcile}), asynchronously, after the switch is announced. An add or
 * delete returns once the store has the change; on the instance that writes to the switch it also
 * waits for the switch to confirm it, and puts the previous definition back in the store when the
 * switch refuses the new one.
 *
 * <p>A reconciliation attempt that cannot read the switch (it does not answer the statistics
 * requests, answers them with an error, or answers too late) is tried again after a backoff that
 * doubles from {@code reconcileRetryFirstMs} up to {@code reconcileRetryMaxMs}, for as long as this
 * instance writes to the switch. Meanwhile the entries are pushed once anyway (adds are idempotent)
 * and listed UNVERIFIED, and stale static flows stay: removing them needs a read. After
 * {@code reconcileNotPossibleAfter} failed attempts in a row the switch's {@link Reconciliation} is
 * NOT_POSSIBLE, which is logged once; a later successful read reconciles it and makes it OK.
 *
 * <p>Plain Java: the switches come from a lookup function, ERROR messages through {@link #onError},
 * so it runs the same in unit tests as in the controller.
 */
public final class StaticFlows implements StaticFlowService {

    private static final Logger LOG = LoggerFactory.getLogger(StaticFlows.class);


    private final EntryStore store;
    private final Function<DatapathId, OFSwitch> switches;
    private final Pusher pusher = new Pusher();
    private final Reconciler reconciler;
    private final ReconcileSettings settings;
    private final Executor executor;
    private final RetryTimer timer;
    private final Consumer<String> notices;
    private final AtomicLong attemptsReconciled = new AtomicLong();
    private final AtomicLong attemptsFailed = new AtomicLong();

    /** An entry as the store holds it. */
    private record Stored(StaticEntry entry, Versioned value) {
    }

    /** A switch's owned ids as stored. */
    private record OwnedVersion(long version, OwnedIds ids) {
    }

    // Guarded by this.
    private final Map<DatapathId, Map<String, Stored>> entries = new TreeMap<>();
    private final Map<DatapathId, OwnedVersion> owned = new HashMap<>();
    /** What this instance saw the switch confirm, per entry name, on the switches it writes to. */
    private final Map<DatapathId, Map<String, StaticEntry>> onSwitch = new HashMap<>();
    private final Map<DatapathId, Map<String, Reconciler.Outcome>> states = new TreeMap<>();
    private final WriteWaiters waiters = new WriteWaiters();
    /** Keys the watch removed before the start read the store, so the read does not bring them back. */
    private final Set<String> removedWhileStarting = new HashSet<>();
    private final List<Watch> watches = new ArrayList<>();
    /** The switches this instance writes to, from when it starts writing to each until it stops. */
    private final Map<DatapathId, SwitchReconciliation> reconciliations = new TreeMap<>();
    private boolean started;

    /**
     * @param executor runs what follows a switch's answer (bookkeeping and store writes), so neither
     *                 the switch's I/O thread nor the store's thread waits for the store
     * @param timer    runs the retries of reconciliation attempts, and tells the time
     * @param notices  where the line saying a switch's reconciliation is not possible goes (once per
     *                 switch, not per retry): the log
     */
    StaticFlows(EntryStore store, Function<DatapathId, OFSwitch> switches, ReconcileSettings settings, Executor executor,
            RetryTimer timer, Consumer<String> notices) {
        this.store = store;
        this.switches = switches;
        this.settings = settings;
        this.reconciler = new Reconciler(pusher, settings.removeStale());
        this.executor = executor;
        this.timer = timer;
        this.notices = notices;
    }

    // ---- start and stop ----

    /**
     * Imports a legacy entry file if there is one ({@link LegacyImport}), then follows the store.
     * Throws StoreUnavailableException when the store cannot be reached, having started nothing: the
     * caller tries again. The caller then reconciles the switches already connected.
     */
    public void start(EntryFile legacy) {
        if (legacy != null) {
            LegacyImport.run(legacy, store);
        }
        List<Watch> opened = new ArrayList<>();
        try {
            opened.add(store.shared().watch(EntryStore.ENTRIES, new EntryListener()));
            opened.add(store.shared().watch(EntryStore.INSTALLED, new OwnedListener()));
            // The watch may deliver the existing values later, on its own thread: read them now, so the
            // view is complete before any switch is reconciled against it.
            Map<String, Versioned> now = store.entries();
            Map<String, Versioned> ownedNow = store.owned();
            synchronized (this) {
                for (Versioned v : now.values()) {
                    if (!removedWhileStarting.contains(v.key()) && stored(v.key()) == null) {
                        remember(v);
                    }
                }
                ownedNow.values().forEach(this::rememberOwned);
                removedWhileStarting.clear();
                watches.addAll(opened);
                started = true;
                LOG.info("Static entries: {} in the cluster's shared store", count());
            }
        } catch (RuntimeException e) {
            opened.forEach(Watch::close);
            throw e;
        }
    }

    /** Stops following the store and reconciling; the entries stay on the switches and in the store. */
    public void stop() {
        List<Watch> open;
        synchronized (this) {
            started = false;
            open = List.copyOf(watches);
            watches.clear();
            reconciliations.values().forEach(SwitchReconciliation::stop);
            reconciliations.clear();
        }
        open.forEach(Watch::close);
    }

    public synchronized boolean isStarted() {
        return started;
    }

    private int count() {
        return entries.values().stream().mapToInt(Map::size).sum();
    }

    /** The entries of a switch by name, as defined now. */
    private Map<String, StaticEntry> entriesOf(DatapathId dpid) {
        Map<String, StaticEntry> defined = new LinkedHashMap<>();
        entries.getOrDefault(dpid, Map.of()).forEach((name, s) -> defined.put(name, s.entry()));
        return defined;
    }

    /** The view's entry at a store key; null for none, or for a key that names no entry. */
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

    /** Whether this instance writes to the switch: connected, and not SLAVE (MASTER in a cluster, EQUAL without roles). */
    static boolean writesTo(OFSwitch sw) {
        return sw != null && sw.isConnected() && sw.getRole() != Role.SLAVE;
    }

    // ---- validation ----

    @Override
    public synchronized List<String> validate(StaticEntry entry) {
        return problems(entry, switches.apply(entry.dpid()));
    }

    private List<String> problems(StaticEntry entry, OFSwitch sw) {
        List<String> problems = new ArrayList<>(EntryValidator.validate(entry, SwitchView.of(sw),
                definitions(entry.dpid(), entry, null)));
        Map<String, StaticEntry> others = entriesOf(entry.dpid());
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
        Map<String, StaticEntry> after = entriesOf(dpid);
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

    // ---- add and delete: through the store ----

    @Override
    public CompletionStage<Result> add(StaticEntry entry) {
        synchronized (this) {
            if (!started) {
                return CompletableFuture.completedFuture(notStarted());
            }
            List<String> problems = problems(entry, switches.apply(entry.dpid()));
            if (!problems.isEmpty()) {
                LOG.info("Static entry {} for {} refused: {}", entry.name(), entry.dpid(), String.join("; ", problems));
                return CompletableFuture.completedFuture(Result.refused(problems));
            }
        }
        String key = EntryStore.key(entry.dpid(), entry.name());
        WriteWaiters.Waiter waiter = waiters.expect(key, EntryStore.encode(entry));
        try {
            store.put(entry);
        } catch (StoreUnavailableException e) {
            waiters.forget(key, waiter);
            return CompletableFuture.completedFuture(unavailable(e));
        }
        return waiters.awaited(key, waiter);
    }

    @Override
    public CompletionStage<Result> delete(DatapathId dpid, String name) {
        synchronized (this) {
            if (!started) {
                return CompletableFuture.completedFuture(notStarted());
            }
            if (!entriesOf(dpid).containsKey(name)) {
                return CompletableFuture.completedFuture(new Result(Result.Outcome.NOT_FOUND,
                        List.of("switch " + dpid + " has no static entry '" + name + "'")));
            }
            List<String> problems = danglingReferences(dpid, null, name);
            if (!problems.isEmpty()) {
                return CompletableFuture.completedFuture(Result.refused(problems));
            }
        }
        String key = EntryStore.key(dpid, name);
        WriteWaiters.Waiter waiter = waiters.expect(key, null);
        try {
            // false: another instance deleted it first; it is gone either way
            store.delete(dpid, name);
        } catch (StoreUnavailableException e) {
            waiters.forget(key, waiter);
            return CompletableFuture.completedFuture(unavailable(e));
        }
        return waiters.awaited(key, waiter);
    }

    private static Result notStarted() {
        return Result.unavailable("the static entries are not loaded from the cluster's shared store yet "
                + "(it could not be reached); nothing was changed");
    }

    private static Result unavailable(StoreUnavailableException e) {
        return Result.unavailable("the cluster's shared store cannot be reached (" + e.getMessage()
                + "); nothing was changed");
    }

    // ---- following the store ----

    /** Every instance's view follows the store; the instance that writes to the switch applies the change there. */
    private final class EntryListener implements StoreListener {
        @Override
        public void changed(Versioned value) {
            entryChanged(value);
        }

        @Override
        public void removed(String key) {
            entryRemoved(key);
        }
    }

    private final class OwnedListener implements StoreListener {
        @Override
        public void changed(Versioned value) {
            synchronized (StaticFlows.this) {
                rememberOwned(value);
            }
        }

        @Override
        public void removed(String key) {
            synchronized (StaticFlows.this) {
                owned.remove(EntryStore.installedSwitch(key));
            }
        }
    }

    /** Under the lock: a newer stored value of a switch's owned ids (values of one key only grow in version). */
    private void rememberOwned(Versioned value) {
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

    /** Under the lock: puts a stored entry in the view; null (logged) when the value is not an entry. */
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

    private void entryChanged(Versioned value) {
        OFSwitch sw;
        Stored previous;
        StaticEntry entry;
        StaticEntry replaced;
        CompletableFuture<Result> outcome = new CompletableFuture<>();
        synchronized (this) {
            previous = stored(value.key());
            if (previous != null && previous.value().version() == value.version()
                    && Arrays.equals(previous.value().value(), value.value())) {
                return; // seen already (the start read it, or the watch told it twice)
            }
            Stored now = remember(value);
            if (now == null) {
                return; // not an entry: the view keeps what it had
            }
            if (!started) {
                return; // the start reconciles every switch once the view is complete
            }
            entry = now.entry();
            sw = switches.apply(entry.dpid());
            if (!writesTo(sw)) {
                setState(entry.dpid(), entry.name(), EntryStatus.State.PENDING, "");
                waiters.record(value.key(), value.value(), CompletableFuture.completedFuture(Result.of(Result.Outcome.STORED)));
                return;
            }
            StaticEntry there = onSwitchOf(entry.dpid()).get(entry.name());
            if (entry.equals(there)) {
                // e.g. the previous definition put back after the switch refused a new one
                setState(entry.dpid(), entry.name(), EntryStatus.State.INSTALLED, "");
                waiters.record(value.key(), value.value(), CompletableFuture.completedFuture(Result.of(Result.Outcome.INSTALLED)));
                return;
            }
            List<String> problems = EntryValidator.validate(entry, SwitchView.of(sw), definitions(entry.dpid(), null, null));
            if (!problems.isEmpty()) {
                // written through an instance that did not know this switch's version or ports
                setState(entry.dpid(), entry.name(), EntryStatus.State.UNSUPPORTED, String.join("; ", problems));
                waiters.record(value.key(), value.value(), CompletableFuture.completedFuture(
                        new Result(Result.Outcome.STORED, List.of("not installed on the switch: " + String.join("; ", problems)))));
                return;
            }
            replaced = there != null ? there : onSwitchMaybe(previous);
            setState(entry.dpid(), entry.name(), EntryStatus.State.PENDING, "");
            waiters.record(value.key(), value.value(), outcome);
        }
        install(sw, entry, replaced, value, previous == null ? null : previous.value().value())
                .whenComplete((r, e) -> outcome.complete(e == null ? r : Result.failed(Errors.describe(e))));
    }

    private void entryRemoved(String key) {
        OFSwitch sw;
        StaticEntry gone;
        CompletableFuture<Result> outcome;
        synchronized (this) {
            Stored previous = stored(key);
            if (!started) {
                removedWhileStarting.add(key);
            }
            if (previous == null) {
                waiters.record(key, null, CompletableFuture.completedFuture(Result.of(Result.Outcome.DELETED)));
                return;
            }
            StaticEntry entry = previous.entry();
            DatapathId dpid = entry.dpid();
            StaticEntry there = onSwitchOf(dpid).remove(entry.name());
            gone = there != null ? there : onSwitchMaybe(previous);
            entries.get(dpid).remove(entry.name());
            Map<String, Reconciler.Outcome> s = states.get(dpid);
            if (s != null) {
                s.remove(entry.name());
            }
            sw = switches.apply(dpid);
            if (!started || !writesTo(sw) || gone == null) {
                // Not ours to write now: flows carry the static cookie and groups and meters stay owned,
                // so the switch's next reconciliation removes them.
                waiters.record(key, null, CompletableFuture.completedFuture(Result.of(Result.Outcome.DELETED)));
                return;
            }
            outcome = new CompletableFuture<>();
            waiters.record(key, null, outcome);
        }
        retire(sw, gone).whenComplete((r, e) -> outcome.complete(e == null ? r : Result.failed(Errors.describe(e))));
    }

    /** Under the lock: the previous definition, when it may be on the switch (it was not refused or left out). */
    private StaticEntry onSwitchMaybe(Stored previous) {
        if (previous == null) {
            return null;
        }
        Reconciler.Outcome o = states.getOrDefault(previous.entry().dpid(), Map.of()).get(previous.entry().name());
        boolean notSent = o != null && (o.state() == EntryStatus.State.FAILED || o.state() == EntryStatus.State.UNSUPPORTED);
        return notSent ? null : previous.entry();
    }

    // ---- pushing ----

    /**
     * Puts an entry on the switch, then removes what it replaced there. When the switch refuses it,
     * the store gets the previous definition back (the one the switch still has), unless another
     * write came first.
     */
    private CompletableFuture<Result> install(OFSwitch sw, StaticEntry entry, StaticEntry replaced, Versioned written,
            byte[] previousValue) {
        Translator t = new Translator(sw.getFactory());
        DatapathId dpid = entry.dpid();
        return pusher.push(sw, install(t, entry)).thenComposeAsync(refusals -> {
            List<String> errors = errors(refusals);
            if (!errors.isEmpty() && (!writesTo(sw) || refusals.stream().anyMatch(r -> isSlave(r.error())))) {
                // Deposed while pushing: the refusal says nothing of the entry, and the new master installs it.
                synchronized (this) {
                    if (isCurrent(entry)) {
                        setState(dpid, entry.name(), EntryStatus.State.PENDING, "");
                    }
                }
                return CompletableFuture.completedFuture(new Result(Result.Outcome.STORED, List.of(
                        "this instance stopped being the switch's master meanwhile; the new master installs it")));
            }
            if (!errors.isEmpty()) {
                LOG.warn("Static entry {} refused by switch {}: {}", entry.name(), dpid, String.join("; ", errors));
                synchronized (this) {
                    if (isCurrent(entry)) {
                        setState(dpid, entry.name(), EntryStatus.State.FAILED, String.join("; ", errors));
                    }
                }
                revert(written, previousValue);
                return CompletableFuture.completedFuture(new Result(Result.Outcome.FAILED, errors));
            }
            List<Pusher.Op> cleanup = replaced == null ? List.of() : retire(t, replaced, entry);
            return pusher.push(sw, cleanup).handleAsync((r, e) -> {
                synchronized (this) {
                    onSwitchOf(dpid).put(entry.name(), entry);
                    if (isCurrent(entry)) {
                        setState(dpid, entry.name(), EntryStatus.State.INSTALLED, "");
                    }
                }
                updateOwned(dpid, ids -> {
                    if (replaced instanceof GroupEntry g && !(entry instanceof GroupEntry ng && ng.groupId() == g.groupId())) {
                        ids.groups().remove(g.groupId());
                    } else if (replaced instanceof MeterEntry m && !(entry instanceof MeterEntry nm && nm.meterId() == m.meterId())) {
                        ids.meters().remove(m.meterId());
                    }
                    if (entry instanceof GroupEntry g) {
                        ids.groups().add(g.groupId());
                    } else if (entry instanceof MeterEntry m) {
                        ids.meters().add(m.meterId());
                    }
                });
                return Result.of(Result.Outcome.INSTALLED);
            }, executor);
        }, executor).exceptionally(e -> {
            String why = "stored, but the switch did not confirm it: " + Errors.describe(e)
                    + "; it is installed when the switch reconnects";
            LOG.warn("Static entry {} on {}: {}", entry.name(), dpid, why);
            return new Result(Result.Outcome.STORED, List.of(why));
        });
    }

    private static boolean isSlave(OFErrorMsg error) {
        return error instanceof OFBadRequestErrorMsg e && e.getCode() == OFBadRequestCode.IS_SLAVE;
    }

    /** Removes a deleted entry from the switch. */
    private CompletableFuture<Result> retire(OFSwitch sw, StaticEntry gone) {
        DatapathId dpid = gone.dpid();
        return pusher.push(sw, retire(new Translator(sw.getFactory()), gone, null)).handleAsync((refusals, e) -> {
            List<String> notes = new ArrayList<>();
            if (e != null) {
                notes.add("the switch did not confirm the removal (" + Errors.describe(e) + "); it is removed when the switch reconnects");
            } else {
                notes.addAll(errors(refusals));
                updateOwned(dpid, ids -> {
                    if (gone instanceof GroupEntry g) {
                        ids.groups().remove(g.groupId());
                    } else if (gone instanceof MeterEntry m) {
                        ids.meters().remove(m.meterId());
                    }
                });
            }
            return new Result(Result.Outcome.DELETED, notes);
        }, executor);
    }

    /** Under the lock: whether the view still defines exactly this entry. */
    private boolean isCurrent(StaticEntry entry) {
        return entry.equals(entriesOf(entry.dpid()).get(entry.name()));
    }

    /** Puts the previous value back if the key still holds what was written; a store away is logged (reconciliation repairs). */
    private void revert(Versioned written, byte[] previousValue) {
        try {
            store.revert(written.key(), written.value(), previousValue);
        } catch (StoreUnavailableException e) {
            LOG.error("Static entries: cannot put the previous value of {} back in the shared store ({}): the store keeps "
                    + "the definition the switch refused until it is changed", written.key(), e.getMessage());
        }
    }

    /** Records a change of the switch's owned ids in the store, and in the view at once. */
    private void updateOwned(DatapathId dpid, java.util.function.Consumer<OwnedIds> change) {
        try {
            Versioned written = store.updateOwned(dpid, ids -> {
                OwnedIds next = ids.copy();
                change.accept(next);
                return next;
            });
            synchronized (this) {
                rememberOwned(written);
            }
        } catch (StoreUnavailableException e) {
            LOG.warn("Static entries: cannot record the groups and meters installed on {} in the shared store ({})",
                    dpid, e.getMessage());
        }
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

    // ---- switches ----

    /**
     * Brings a switch in line with the entries, when this instance writes to it (not SLAVE): for a
     * switch that was announced, one whose master this instance became, one whose port an entry
     * waited for, and every connected one once the store is followed. Entries the switch's version
     * or ports cannot carry are marked UNSUPPORTED with the reason and not sent. An attempt that
     * cannot read the switch is tried again after a backoff (see the class comment); a call while an
     * attempt runs asks for one more after it. Never fails, never blocks: the stage completes when
     * the attempt this call started (or asked for) has ended.
     */
    public CompletionStage<Void> reconcile(OFSwitch sw) {
        Attempt attempt;
        synchronized (this) {
            if (!started || !writesTo(sw)) {
                return CompletableFuture.completedFuture(null); // the start reconciles it; a SLAVE writes nothing
            }
            SwitchReconciliation r = reconciliations.get(sw.getId());
            if (r == null || r.sw != sw) {
                if (r != null) {
                    r.stop(); // an older connection whose removal was missed
                }
                r = new SwitchReconciliation(sw);
                reconciliations.put(sw.getId(), r);
            } else if (r.inProgress) {
                if (r.again == null) {
                    r.again = new CompletableFuture<>();
                }
                return r.again;
            }
            r.cancelRetry();
            attempt = begin(r);
        }
        return run(attempt);
    }

    /** What one attempt works with, taken under the lock. */
    private record Attempt(SwitchReconciliation r, List<StaticEntry> valid, OwnedIds owned, Map<String, StaticEntry> pushed) {
    }

    /** Under the lock: starts an attempt, marking the entries the switch cannot carry. */
    private Attempt begin(SwitchReconciliation r) {
        r.inProgress = true;
        r.attempts++;
        DatapathId dpid = r.sw.getId();
        List<StaticEntry> valid = new ArrayList<>();
        SwitchView view = SwitchView.of(r.sw);
        for (StaticEntry e : entriesOf(dpid).values()) {
            List<String> problems = EntryValidator.validate(e, view, definitions(dpid, null, null));
            if (problems.isEmpty()) {
                valid.add(e);
            } else {
                Reconciler.Outcome before = states.getOrDefault(dpid, Map.of()).get(e.name());
                String detail = String.join("; ", problems);
                setState(dpid, e.name(), EntryStatus.State.UNSUPPORTED, detail);
                if (before == null || before.state() != EntryStatus.State.UNSUPPORTED || !before.detail().equals(detail)) {
                    LOG.warn("Static entry {} not installed on {}: {}", e.name(), dpid, detail);
                }
            }
        }
        OwnedVersion o = owned.get(dpid);
        return new Attempt(r, valid, o == null ? new OwnedIds() : o.ids().copy(), Map.copyOf(onSwitchOf(dpid)));
    }

    /** Runs an attempt, outside the lock: the switch's answers come on its own thread. */
    private CompletableFuture<Void> run(Attempt a) {
        return reconciler.reconcile(a.r().sw, a.valid(), a.owned(), a.pushed(), () -> stillWriting(a.r()))
                .thenAcceptAsync(report -> ended(a, report), executor)
                .exceptionally(e -> {
                    LOG.warn("Static entries on {}: reconciliation failed", a.r().sw.getId(), e);
                    synchronized (this) {
                        a.r().inProgress = false;
                    }
                    return null;
                });
    }

    /** Whether this attempt may still write: its switch is still one this instance writes to, on the same connection. */
    private boolean stillWriting(SwitchReconciliation r) {
        synchronized (this) {
            if (r.isStopped() || reconciliations.get(r.sw.getId()) != r) {
                return false;
            }
        }
        return writesTo(r.sw);
    }

    /** An attempt ended: the entries' states, the switch's reconciliation, the retry, and the next attempt if one was asked for. */
    private void ended(Attempt a, Reconciler.Report report) {
        SwitchReconciliation r = a.r();
        DatapathId dpid = r.sw.getId();
        Attempt next = null;
        CompletableFuture<Void> again;
        String notPossible = null;
        boolean reconciledAgain = false;
        synchronized (this) {
            r.inProgress = false;
            if (r.isStopped() || reconciliations.get(dpid) != r || report.stopped()) {
                return; // this instance stopped writing to the switch meanwhile: its states say PENDING
            }
            Map<String, StaticEntry> before = onSwitchOf(dpid);
            Map<String, StaticEntry> sent = new HashMap<>();
            for (StaticEntry e : a.valid()) {
                Reconciler.Outcome outcome = report.outcomes().get(e.name());
                if (outcome == null) {
                    // Not sent this time: what was sent before stands, and its state stays.
                    StaticEntry there = before.get(e.name());
                    if (there != null) {
                        sent.put(e.name(), there);
                    }
                    continue;
                }
                if (isCurrent(e)) {
                    setState(dpid, e.name(), outcome.state(), outcome.detail());
                }
                if (outcome.state() == EntryStatus.State.INSTALLED || outcome.state() == EntryStatus.State.UNVERIFIED) {
                    sent.put(e.name(), e);
                }
            }
            onSwitch.put(dpid, sent);
            r.lastAttempt = timer.now();
            if (report.reconciled()) {
                attemptsReconciled.incrementAndGet();
                reconciledAgain = r.state == Reconciliation.State.NOT_POSSIBLE;
                r.state = Reconciliation.State.OK;
                r.reason = "";
                r.failedInARow = 0;
            } else {
                attemptsFailed.incrementAndGet();
                r.failedInARow++;
                r.reason = report.failure();
                Reconciliation.State state = r.failedInARow >= settings.notPossibleAfter()
                        ? Reconciliation.State.NOT_POSSIBLE : Reconciliation.State.RETRYING;
                if (state == Reconciliation.State.NOT_POSSIBLE && r.state != Reconciliation.State.NOT_POSSIBLE) {
                    notPossible = "Static entries on " + dpid + ": reconciliation not possible after " + r.failedInARow
                            + " attempts: " + r.reason + ". Its entries were pushed without being verified, and stale "
                            + "static flows stay on it; trying again at most every "
                            + settings.retryMaxMs() / 1000 + " s (logged once per switch)";
                }
                r.state = state;
                long delay = settings.retryDelayMs(r.failedInARow);
                r.retryAt(r.lastAttempt.plusMillis(delay), timer.schedule(() -> retry(r), delay));
            }
            again = r.again;
            if (again != null) {
                r.again = null;
                r.cancelRetry();
                next = begin(r);
            }
        }
        OwnedIds ownedNow = a.owned();
        if (!ownedNow.equals(report.owned())) {
            OwnedIds after = report.owned();
            updateOwned(dpid, ids -> {
                ids.groups().removeIf(g -> ownedNow.groups().contains(g) && !after.groups().contains(g));
                ids.meters().removeIf(m -> ownedNow.meters().contains(m) && !after.meters().contains(m));
                ids.groups().addAll(after.groups());
                ids.meters().addAll(after.meters());
            });
        }
        report.problems().forEach(p -> LOG.warn("Static entries on {}: {}", dpid, p));
        long failed = report.outcomes().values().stream().filter(o -> o.state() == EntryStatus.State.FAILED).count();
        if (report.reconciled()) {
            if (reconciledAgain) {
                LOG.info("Static entries on {}: the switch answers again; reconciled", dpid);
            }
            LOG.info("Static entries on {}: {} in place, {} pushed, {} stale removed, {} failed", dpid,
                    report.unchanged(), report.added(), report.removed(), failed);
        } else if (report.added() > 0 || failed > 0) {
            // The first attempt pushes what it cannot verify; retries send only their reads, and say nothing.
            LOG.info("Static entries on {}: {} pushed without being verified, {} failed ({}); reading again later",
                    dpid, report.added(), failed, report.failure());
        } else {
            LOG.debug("Static entries on {}: attempt {} failed: {}", dpid, a.r().attempts, report.failure());
        }
        if (notPossible != null) {
            notices.accept(notPossible);
        }
        if (next != null) {
            run(next).whenComplete((v, e) -> again.complete(null));
        }
    }

    /** A retry is due. */
    private void retry(SwitchReconciliation r) {
        Attempt a;
        synchronized (this) {
            if (!started || r.isStopped() || r.inProgress || reconciliations.get(r.sw.getId()) != r) {
                return;
            }
            r.cancelRetry();
            a = begin(r);
        }
        run(a);
    }

    /** The reconciliation of every switch this instance writes to. */
    @Override
    public synchronized List<Reconciliation> reconciliations() {
        return reconciliations.values().stream().map(SwitchReconciliation::status).toList();
    }

    @Override
    public Optional<Reconciliation> reconciliation(DatapathId dpid) {
        synchronized (this) {
            SwitchReconciliation r = reconciliations.get(dpid);
            if (r != null) {
                return Optional.of(r.status());
            }
        }
        OFSwitch sw = switches.apply(dpid);
        if (sw != null && sw.isConnected() && sw.getRole() == Role.SLAVE) {
            return Optional.of(new Reconciliation(dpid, Reconciliation.State.SLAVE,
                    "this instance is SLAVE for the switch: its master reconciles it", 0, 0, null, null));
        }
        return Optional.empty();
    }

    /** Attempts since the start that reconciled their switch, and that did not. */
    long[] attempts() {
        return new long[] {attemptsReconciled.get(), attemptsFailed.get()};
    }

    /** True when some entry of the switch could not be installed because of its ports or version. */
    public synchronized boolean hasUnsupported(DatapathId dpid) {
        return states.getOrDefault(dpid, Map.of()).values().stream()
                .anyMatch(o -> o.state() == EntryStatus.State.UNSUPPORTED);
    }

    /**
     * This instance no longer writes to the switch (it is gone, or this instance became SLAVE): its
     * entries wait, no retry is made, and an attempt under way writes nothing more.
     */
    public synchronized void stoppedWriting(DatapathId dpid) {
        SwitchReconciliation r = reconciliations.remove(dpid);
        if (r != null) {
            r.stop();
        }
        onSwitch.remove(dpid);
        Map<String, Reconciler.Outcome> s = states.get(dpid);
        if (s != null) {
            s.replaceAll((name, o) -> new Reconciler.Outcome(EntryStatus.State.PENDING, ""));
        }
    }

    /** Offers an ERROR from a switch; true when it answers one of our pushes. */
    public boolean onError(OFSwitch sw, OFErrorMsg error) {
        return pusher.onError(sw, error);
    }

    // ---- listing ----

    /**
     * The entries of a switch as the store holds them now, so a listing on any instance shows every
     * add and delete that returned, on any instance, even before this instance's watch brings it; the
     * state is this instance's (PENDING for a definition it has not yet applied). While the store
     * cannot be reached, this instance's view.
     */
    @Override
    public List<EntryStatus> list(DatapathId dpid) {
        return listed(defined(), dpid::equals);
    }

    @Override
    public List<EntryStatus> list() {
        return listed(defined(), dpid -> true);
    }

    /** The stored entries by switch: read from the store now, or this instance's view without one. */
    private Map<DatapathId, Map<String, Stored>> defined() {
        Map<String, Versioned> now;
        try {
            now = store.entries();
        } catch (StoreUnavailableException e) {
            synchronized (this) {
                Map<DatapathId, Map<String, Stored>> view = new TreeMap<>();
                entries.forEach((dpid, named) -> view.put(dpid, new LinkedHashMap<>(named)));
                return view;
            }
        }
        Map<DatapathId, Map<String, Stored>> defined = new TreeMap<>();
        for (Versioned value : now.values()) {
            try {
                StaticEntry entry = EntryStore.decode(value);
                defined.computeIfAbsent(entry.dpid(), d -> new LinkedHashMap<>()).put(entry.name(), new Stored(entry, value));
            } catch (IllegalArgumentException e) {
                // not an entry: the watch logs it once
            }
        }
        return defined;
    }

    private synchronized List<EntryStatus> listed(Map<DatapathId, Map<String, Stored>> defined, Predicate<DatapathId> which) {
        List<EntryStatus> out = new ArrayList<>();
        defined.forEach((dpid, named) -> {
            if (!which.test(dpid)) {
                return;
            }
            List<Stored> sorted = new ArrayList<>(named.values());
            sorted.sort(Comparator.comparing(Stored::entry, ORDER));
            OFSwitch sw = switches.apply(dpid);
            String slave = sw != null && sw.isConnected() && sw.getRole() == Role.SLAVE
                    ? "this instance is SLAVE for the switch: its master installs the entries" : "";
            Map<String, Stored> seen = entries.getOrDefault(dpid, Map.of());
            for (Stored s : sorted) {
                StaticEntry e = s.entry();
                Stored mine = seen.get(e.name());
                boolean applied = mine != null && mine.value().version() == s.value().version()
                        && Arrays.equals(mine.value().value(), s.value().value());
                Reconciler.Outcome o = applied ? states.getOrDefault(dpid, Map.of()).get(e.name()) : null;
                out.add(o == null || o.state() == EntryStatus.State.PENDING
                        ? new EntryStatus(e, EntryStatus.State.PENDING, o == null || o.detail().isEmpty() ? slave : o.detail())
                        : new EntryStatus(e, o.state(), o.detail()));
            }
        });
        return out;
    }

    /** Meters, then groups, then flows by table and descending priority, then by name. */
    private static final Comparator<StaticEntry> ORDER = Comparator
            .comparingInt((StaticEntry e) -> e instanceof MeterEntry ? 0 : e instanceof GroupEntry ? 1 : 2)
            .thenComparingInt(e -> e instanceof FlowEntry f ? f.table() : 0)
            .thenComparingInt(e -> e instanceof FlowEntry f ? -f.priority() : 0)
            .thenComparing(StaticEntry::name);

    // ---- state ----

    private Map<String, StaticEntry> onSwitchOf(DatapathId dpid) {
        return onSwitch.computeIfAbsent(dpid, d -> new HashMap<>());
    }

    private void setState(DatapathId dpid, String name, EntryStatus.State state, String detail) {
        states.computeIfAbsent(dpid, d -> new LinkedHashMap<>()).put(name, new Reconciler.Outcome(state, detail));
    }

    /** For the shell: the entries' text form. */
    static String describe(StaticEntry e) {
        return e.toString();
    }

    static String actions(List<Action> actions) {
        return Action.format(actions);
    }
}
