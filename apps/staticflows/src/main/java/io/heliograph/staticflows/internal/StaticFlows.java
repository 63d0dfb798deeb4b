package io.heliograph.staticflows.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;

import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.cluster.SharedStore.StoreListener;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.core.cluster.SharedStore.Versioned;
import io.heliograph.core.cluster.SharedStore.Watch;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.Reconciliation;
import io.heliograph.staticflows.Result;
import io.heliograph.staticflows.StaticEntry;
import io.heliograph.staticflows.StaticFlowService;
import io.heliograph.staticflows.internal.StoredEntries.Stored;

/**
 * The static entries of the cluster: validated, kept in the cluster's shared store (the one source
 * of truth, see {@link EntryStore}), and put on the switches this instance writes to.
 *
 * <p>Every instance watches the store and its mirror follows it; whatever instance an entry was
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
 *
 * <p>This class is the service's face and holds no state of its own beyond the watches: the entries
 * as the store holds them are mirrored by {@link StoredEntries}, what became of them on each switch
 * is kept by {@link SwitchApplier}, and the adds and deletes waiting for their outcome by
 * {@link WriteWaiters}; each guards its own state (see their comments).
 */
public final class StaticFlows implements StaticFlowService {

    private static final Logger LOG = LoggerFactory.getLogger(StaticFlows.class);

    private final EntryStore store;
    private final Function<DatapathId, OFSwitch> switches;
    private final StoredEntries mirror;
    private final WriteWaiters waiters = new WriteWaiters();
    private final SwitchApplier applier;
    // Guarded by this.
    private final List<Watch> watches = new ArrayList<>();

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
        this.mirror = new StoredEntries(store);
        this.applier = new SwitchApplier(mirror, store, switches, waiters, settings, executor, timer, notices);
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
            // mirror is complete before any switch is reconciled against it.
            Map<String, Versioned> now = store.entries();
            Map<String, Versioned> ownedNow = store.owned();
            synchronized (this) {
                watches.addAll(opened);
            }
            mirror.load(now, ownedNow);
        } catch (RuntimeException e) {
            opened.forEach(Watch::close);
            throw e;
        }
    }

    /** Stops following the store and reconciling; the entries stay on the switches and in the store. */
    public void stop() {
        List<Watch> open;
        synchronized (this) {
            open = List.copyOf(watches);
            watches.clear();
        }
        mirror.stop();
        applier.stop();
        open.forEach(Watch::close);
    }

    public boolean isStarted() {
        return mirror.isComplete();
    }

    // ---- validation ----

    @Override
    public List<String> validate(StaticEntry entry) {
        return mirror.problems(entry, SwitchView.of(switches.apply(entry.dpid())));
    }

    // ---- add and delete: through the store ----

    @Override
    public CompletionStage<Result> add(StaticEntry entry) {
        if (!mirror.isComplete()) {
            return CompletableFuture.completedFuture(notStarted());
        }
        List<String> problems = validate(entry);
        if (!problems.isEmpty()) {
            LOG.info("Static entry {} for {} refused: {}", entry.name(), entry.dpid(), String.join("; ", problems));
            return CompletableFuture.completedFuture(Result.refused(problems));
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
        if (!mirror.isComplete()) {
            return CompletableFuture.completedFuture(notStarted());
        }
        List<String> problems = mirror.deletionProblems(dpid, name);
        if (problems == null) {
            return CompletableFuture.completedFuture(new Result(Result.Outcome.NOT_FOUND,
                    List.of("switch " + dpid + " has no static entry '" + name + "'")));
        }
        if (!problems.isEmpty()) {
            return CompletableFuture.completedFuture(Result.refused(problems));
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

    /** Every instance's mirror follows the store; the instance that writes to the switch applies the change there. */
    private final class EntryListener implements StoreListener {
        @Override
        public void changed(Versioned value) {
            applier.changed(value);
        }

        @Override
        public void removed(String key) {
            applier.removed(key);
        }
    }

    private final class OwnedListener implements StoreListener {
        @Override
        public void changed(Versioned value) {
            mirror.rememberOwned(value);
        }

        @Override
        public void removed(String key) {
            mirror.forgetOwned(key);
        }
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
        return applier.reconcile(sw);
    }

    /** The reconciliation of every switch this instance writes to. */
    @Override
    public List<Reconciliation> reconciliations() {
        return applier.reconciliations();
    }

    @Override
    public Optional<Reconciliation> reconciliation(DatapathId dpid) {
        return applier.reconciliation(dpid);
    }

    /** Attempts since the start that reconciled their switch, and that did not. */
    long[] attempts() {
        return applier.attempts();
    }

    /** True when some entry of the switch could not be installed because of its ports or version. */
    public boolean hasUnsupported(DatapathId dpid) {
        return applier.hasUnsupported(dpid);
    }

    /**
     * This instance no longer writes to the switch (it is gone, or this instance became SLAVE): its
     * entries wait, no retry is made, and an attempt under way writes nothing more.
     */
    public void stoppedWriting(DatapathId dpid) {
        applier.stoppedWriting(dpid);
    }

    /** Offers an ERROR from a switch; true when it answers one of our pushes. */
    public boolean onError(OFSwitch sw, OFErrorMsg error) {
        return applier.onError(sw, error);
    }

    // ---- listing ----

    /**
     * The entries of a switch as the store holds them now, so a listing on any instance shows every
     * add and delete that returned, on any instance, even before this instance's watch brings it; the
     * state is this instance's (PENDING for a definition it has not yet applied). While the store
     * cannot be reached, this instance's mirror.
     */
    @Override
    public List<EntryStatus> list(DatapathId dpid) {
        return applier.statuses(defined(), dpid::equals);
    }

    @Override
    public List<EntryStatus> list() {
        return applier.statuses(defined(), dpid -> true);
    }

    /** The stored entries by switch: read from the store now, or this instance's mirror without one. */
    private Map<DatapathId, Map<String, Stored>> defined() {
        Map<String, Versioned> now;
        try {
            now = store.entries();
        } catch (StoreUnavailableException e) {
            return mirror.view();
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
}
