package io.heliograph.staticflows.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
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
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.core.cluster.SharedStore.Versioned;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.MeterEntry;
import io.heliograph.staticflows.Reconciliation;
import io.heliograph.staticflows.Result;
import io.heliograph.staticflows.StaticEntry;
import io.heliograph.staticflows.internal.StoredEntries.Stored;

/**
 * Applies the stored entries ({@link StoredEntries}) to the switches this instance writes to, and
 * keeps what came of it: what each switch was sent and confirmed, the state of each entry, and each
 * switch's {@link SwitchReconciliation} with its retries. A change the watch brings is applied to
 * its switch at once and handed to the writes waiting for it ({@link WriteWaiters}); when the switch
 * refuses a new definition the store gets the previous one back. A switch this instance starts
 * writing to is reconciled with the entries by the {@link Reconciler}, and again after a backoff
 * while it cannot be read.
 *
 * <p>Its own lock guards its maps and the reconciliations. A change of the mirror and the state it
 * gives the entry happen under it together ({@link #changed}, {@link #removed}), so a listing or a
 * late confirmation never pairs a definition with the state of another; the mirror's lock is taken
 * inside this one, never the other way round. The switches' answers come on their I/O threads and
 * are handled on the executor, outside the lock.
 */
final class SwitchApplier {

    private static final Logger LOG = LoggerFactory.getLogger(SwitchApplier.class);

    private final StoredEntries mirror;
    private final EntryStore store;
    private final Function<DatapathId, OFSwitch> switches;
    private final WriteWaiters waiters;
    private final Pusher pusher = new Pusher();
    private final Reconciler reconciler;
    private final ReconcileSettings settings;
    private final Executor executor;
    private final RetryTimer timer;
    private final Consumer<String> notices;
    private final AtomicLong attemptsReconciled = new AtomicLong();
    private final AtomicLong attemptsFailed = new AtomicLong();

    // Guarded by this.
    /** What this instance saw the switch confirm, per entry name, on the switches it writes to. */
    private final Map<DatapathId, Map<String, StaticEntry>> onSwitch = new HashMap<>();
    private final Map<DatapathId, Map<String, Reconciler.Outcome>> states = new TreeMap<>();
    /** The switches this instance writes to, from when it starts writing to each until it stops. */
    private final Map<DatapathId, SwitchReconciliation> reconciliations = new TreeMap<>();

    /** See {@link StaticFlows#StaticFlows} for the executor, timer and notices. */
    SwitchApplier(StoredEntries mirror, EntryStore store, Function<DatapathId, OFSwitch> switches, WriteWaiters waiters,
            ReconcileSettings settings, Executor executor, RetryTimer timer, Consumer<String> notices) {
        this.mirror = mirror;
        this.store = store;
        this.switches = switches;
        this.waiters = waiters;
        this.settings = settings;
        this.reconciler = new Reconciler(pusher, settings.removeStale());
        this.executor = executor;
        this.timer = timer;
        this.notices = notices;
    }

    /** Whether this instance writes to the switch: connected, and not SLAVE (MASTER in a cluster, EQUAL without roles). */
    static boolean writesTo(OFSwitch sw) {
        return sw != null && sw.isConnected() && sw.getRole() != Role.SLAVE;
    }

    /** The app stopped: no more reconciliation attempts or retries. */
    synchronized void stop() {
        reconciliations.values().forEach(SwitchReconciliation::stop);
        reconciliations.clear();
    }

    // ---- following the store ----

    /** A stored value changed: the mirror follows it, and on a switch this instance writes to it is applied there. */
    void changed(Versioned value) {
        OFSwitch sw;
        Stored previous;
        StaticEntry entry;
        StaticEntry replaced;
        CompletableFuture<Result> outcome = new CompletableFuture<>();
        synchronized (this) {
            StoredEntries.Change change = mirror.changed(value);
            if (change == null) {
                return; // seen already (the start read it, the watch told it twice), or not an entry
            }
            if (!change.complete()) {
                return; // the start reconciles every switch once the mirror is complete
            }
            previous = change.previous();
            entry = change.now().entry();
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
            List<String> problems = mirror.validate(entry, SwitchView.of(sw));
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

    /** A stored key was removed: the mirror follows, and on a switch this instance writes to the entry is removed there. */
    void removed(String key) {
        OFSwitch sw;
        StaticEntry gone;
        CompletableFuture<Result> outcome;
        synchronized (this) {
            StoredEntries.Removal removal = mirror.removed(key);
            Stored previous = removal.previous();
            if (previous == null) {
                waiters.record(key, null, CompletableFuture.completedFuture(Result.of(Result.Outcome.DELETED)));
                return;
            }
            StaticEntry entry = previous.entry();
            DatapathId dpid = entry.dpid();
            StaticEntry there = onSwitchOf(dpid).remove(entry.name());
            gone = there != null ? there : onSwitchMaybe(previous);
            Map<String, Reconciler.Outcome> s = states.get(dpid);
            if (s != null) {
                s.remove(entry.name());
            }
            sw = switches.apply(dpid);
            if (!removal.complete() || !writesTo(sw) || gone == null) {
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
        return pusher.push(sw, EntryMessages.install(t, entry)).thenComposeAsync(refusals -> {
            List<String> errors = EntryMessages.errors(refusals);
            if (!errors.isEmpty() && (!writesTo(sw) || refusals.stream().anyMatch(r -> isSlave(r.error())))) {
                // Deposed while pushing: the refusal says nothing of the entry, and the new master installs it.
                synchronized (this) {
                    if (mirror.isCurrent(entry)) {
                        setState(dpid, entry.name(), EntryStatus.State.PENDING, "");
                    }
                }
                return CompletableFuture.completedFuture(new Result(Result.Outcome.STORED, List.of(
                        "this instance stopped being the switch's master meanwhile; the new master installs it")));
            }
            if (!errors.isEmpty()) {
                LOG.warn("Static entry {} refused by switch {}: {}", entry.name(), dpid, String.join("; ", errors));
                synchronized (this) {
                    if (mirror.isCurrent(entry)) {
                        setState(dpid, entry.name(), EntryStatus.State.FAILED, String.join("; ", errors));
                    }
                }
                revert(written, previousValue);
                return CompletableFuture.completedFuture(new Result(Result.Outcome.FAILED, errors));
            }
            List<Pusher.Op> cleanup = replaced == null ? List.of() : EntryMessages.retire(t, replaced, entry);
            return pusher.push(sw, cleanup).handleAsync((r, e) -> {
                synchronized (this) {
                    onSwitchOf(dpid).put(entry.name(), entry);
                    if (mirror.isCurrent(entry)) {
                        setState(dpid, entry.name(), EntryStatus.State.INSTALLED, "");
                    }
                }
                mirror.updateOwned(dpid, ids -> {
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
        return pusher.push(sw, EntryMessages.retire(new Translator(sw.getFactory()), gone, null)).handleAsync((refusals, e) -> {
            List<String> notes = new ArrayList<>();
            if (e != null) {
                notes.add("the switch did not confirm the removal (" + Errors.describe(e) + "); it is removed when the switch reconnects");
            } else {
                notes.addAll(EntryMessages.errors(refusals));
                mirror.updateOwned(dpid, ids -> {
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

    /** Puts the previous value back if the key still holds what was written; a store away is logged (reconciliation repairs). */
    private void revert(Versioned written, byte[] previousValue) {
        try {
            store.revert(written.key(), written.value(), previousValue);
        } catch (StoreUnavailableException e) {
            LOG.error("Static entries: cannot put the previous value of {} back in the shared store ({}): the store keeps "
                    + "the definition the switch refused until it is changed", written.key(), e.getMessage());
        }
    }

    // ---- reconciling ----

    /**
     * Brings a switch in line with the entries, when this instance writes to it (not SLAVE): for a
     * switch that was announced, one whose master this instance became, one whose port an entry
     * waited for, and every connected one once the store is followed. Entries the switch's version
     * or ports cannot carry are marked UNSUPPORTED with the reason and not sent. An attempt that
     * cannot read the switch is tried again after a backoff (see {@link StaticFlows}); a call while an
     * attempt runs asks for one more after it. Never fails, never blocks: the stage completes when
     * the attempt this call started (or asked for) has ended.
     */
    CompletionStage<Void> reconcile(OFSwitch sw) {
        Attempt attempt;
        synchronized (this) {
            if (!mirror.isComplete() || !writesTo(sw)) {
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
        for (StaticEntry e : mirror.of(dpid).values()) {
            List<String> problems = mirror.validate(e, view);
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
        return new Attempt(r, valid, mirror.owned(dpid), Map.copyOf(onSwitchOf(dpid)));
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
                if (mirror.isCurrent(e)) {
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
            mirror.updateOwned(dpid, ids -> {
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
            if (!mirror.isComplete() || r.isStopped() || r.inProgress || reconciliations.get(r.sw.getId()) != r) {
                return;
            }
            r.cancelRetry();
            a = begin(r);
        }
        run(a);
    }

    /** The reconciliation of every switch this instance writes to. */
    synchronized List<Reconciliation> reconciliations() {
        return reconciliations.values().stream().map(SwitchReconciliation::status).toList();
    }

    /** The switch's reconciliation: this instance's when it writes to it, SLAVE when its master reconciles it. */
    Optional<Reconciliation> reconciliation(DatapathId dpid) {
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
    synchronized boolean hasUnsupported(DatapathId dpid) {
        return states.getOrDefault(dpid, Map.of()).values().stream()
                .anyMatch(o -> o.state() == EntryStatus.State.UNSUPPORTED);
    }

    /**
     * This instance no longer writes to the switch (it is gone, or this instance became SLAVE): its
     * entries wait, no retry is made, and an attempt under way writes nothing more.
     */
    synchronized void stoppedWriting(DatapathId dpid) {
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
    boolean onError(OFSwitch sw, OFErrorMsg error) {
        return pusher.onError(sw, error);
    }

    // ---- listing ----

    /**
     * The entries {@code defined} (by switch, as the store holds them) of the switches {@code which}
     * accepts, in {@link #ORDER}, each with this instance's state of it: PENDING for a definition the
     * mirror does not hold yet, so this instance has not applied it.
     */
    synchronized List<EntryStatus> statuses(Map<DatapathId, Map<String, Stored>> defined, Predicate<DatapathId> which) {
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
            for (Stored s : sorted) {
                StaticEntry e = s.entry();
                Stored mine = mirror.get(dpid, e.name());
                boolean applied = mine != null && mine.isValue(s.value());
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
}
