package io.heliograph.staticflows.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.projectfloodlight.openflow.protocol.OFBucket;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDeleteStrict;
import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.OFFlowStatsReply;
import org.projectfloodlight.openflow.protocol.OFFlowStatsRequest;
import org.projectfloodlight.openflow.protocol.OFGroupDescStatsEntry;
import org.projectfloodlight.openflow.protocol.OFGroupDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFGroupType;
import org.projectfloodlight.openflow.protocol.OFMeterConfig;
import org.projectfloodlight.openflow.protocol.OFMeterConfigStatsReply;
import org.projectfloodlight.openflow.protocol.OFMeterFlags;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.meterband.OFMeterBand;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.OFErrorException;
import io.heliograph.core.OFSwitch;
import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.MeterEntry;
import io.heliograph.staticflows.StaticEntry;

/**
 * Brings a switch in line with its static entries: reads its flows (only those carrying the static
 * cookie), and its groups and meters when entries define or this app owns any; adds what is missing
 * or different; removes static flows no longer defined, and groups and meters this app installed
 * that are no longer defined. Nothing else on the switch is touched. Afterwards it reads the switch
 * again, so an entry the switch did not take is reported as failed even without an error.
 *
 * <p>A part of the switch that cannot be read (no answer within the request timeout, an error, a
 * lost connection) does not stop the rest: entries of that kind are pushed without knowing what is
 * there (adds are idempotent; a group or meter is sent as ADD then MODIFY, one of which fails as
 * expected), unless they were pushed before on this connection; they are reported UNVERIFIED, stale
 * flows are left alone, and the report says what could not be read, so the caller tries again.
 */
final class Reconciler {

    private static final Logger LOG = LoggerFactory.getLogger(Reconciler.class);
    /** The request timeout as the core words it: "... unanswered after 10000 ms". */
    private static final Pattern UNANSWERED_AFTER = Pattern.compile("unanswered after (\\d+) ms");

    /** What became of one entry. */
    record Outcome(EntryStatus.State state, String detail) {
        static final Outcome INSTALLED = new Outcome(EntryStatus.State.INSTALLED, "");
    }

    /**
     * @param outcomes   per entry name; an entry missing here has no news (not pushed, and its kind
     *                   could not be read): its state stays as it was
     * @param owned      the group and meter ids now installed by this app on the switch
     * @param problems   what went wrong with the switch apart from reading it (refused clean-ups)
     * @param unreadable why a part of the switch could not be read, one sentence per part; empty when
     *                   the switch was read in full
     * @param pushFailure why the switch did not confirm the push (its barrier), or null
     * @param stopped    this instance stopped writing to the switch before pushing: nothing was sent
     */
    record Report(Map<String, Outcome> outcomes, int added, int removed, int unchanged, OwnedIds owned,
            List<String> problems, List<String> unreadable, String pushFailure, boolean stopped) {

        /** The switch was read in full and confirmed the push: reconciled. */
        boolean reconciled() {
            return !stopped && unreadable.isEmpty() && pushFailure == null;
        }

        /** Why the attempt did not reconcile the switch; empty when it did. */
        String failure() {
            if (!unreadable.isEmpty()) {
                return String.join("; ", unreadable);
            }
            return pushFailure == null ? "" : "the switch did not confirm the push: " + pushFailure;
        }
    }

    /** What the switch holds of ours; null members could not be read. */
    private record SwitchState(Map<FlowShape.Key, FlowShape> flows, List<OFFlowStatsEntry> staleCandidates,
            Map<Long, OFGroupDescStatsEntry> groups, Map<Long, OFMeterConfig> meters) {

        static final SwitchState UNREAD = new SwitchState(null, List.of(), null, null);
    }

    private final Pusher pusher;
    private final boolean removeStale;

    Reconciler(Pusher pusher, boolean removeStale) {
        this.pusher = pusher;
        this.removeStale = removeStale;
    }

    /**
     * Reconciles; {@code entries} must be valid for this switch. Never completes exceptionally.
     *
     * @param pushed  the entries already pushed to this connection since this instance started
     *                writing to it: when their kind cannot be read they are not pushed again (a
     *                retry against a switch that does not answer sends nothing but its reads)
     * @param writing asked before anything is written: false (this instance became SLAVE, or the
     *                caller gave up on this attempt) and nothing is
     */
    CompletableFuture<Report> reconcile(OFSwitch sw, List<StaticEntry> entries, OwnedIds owned,
            Map<String, StaticEntry> pushed, BooleanSupplier writing) {
        Translator t = new Translator(sw.getFactory());
        List<String> problems = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        boolean groups = !owned.groups().isEmpty() || entries.stream().anyMatch(GroupEntry.class::isInstance);
        boolean meters = !owned.meters().isEmpty() || entries.stream().anyMatch(MeterEntry.class::isInstance);
        return read(sw, groups, meters, unreadable).thenCompose(before -> {
            if (!writing.getAsBoolean()) {
                return CompletableFuture.completedFuture(new Report(Map.of(), 0, 0, 0, owned.copy(), List.of(),
                        List.copyOf(unreadable), null, true));
            }
            Plan plan = plan(sw, t, entries, owned, before, pushed);
            boolean complete = unreadable.isEmpty();
            return pusher.push(sw, plan.ops).handle((refusals, e) -> new Pushed(
                    e == null ? refusals : List.<Pusher.Refusal>of(), e == null ? null : Errors.describe(e)))
                    // Verify only against a complete first read: a switch that did not answer it will not answer again now.
                    .thenCompose(p -> (complete ? read(sw, groups, meters, new ArrayList<>())
                            : CompletableFuture.completedFuture(SwitchState.UNREAD)).thenApply(after ->
                            report(t, entries, plan, p, before, after, owned, problems, unreadable)));
        }).exceptionally(e -> {
            LOG.warn("Reconciling static entries on {} failed", sw.getId(), e);
            Map<String, Outcome> outcomes = new LinkedHashMap<>();
            for (StaticEntry entry : entries) {
                outcomes.put(entry.name(), new Outcome(EntryStatus.State.FAILED, "reconciliation failed: " + Errors.describe(e)));
            }
            return new Report(outcomes, 0, 0, 0, owned.copy(), List.of(Errors.describe(e)),
                    List.of("reconciliation failed: " + Errors.describe(e)), null, false);
        });
    }

    /** What the push came to: the refusals, or why the switch did not confirm it. */
    private record Pushed(List<Pusher.Refusal> refusals, String failure) {
    }

    /** Why a read failed, for a person: "the switch did not answer the flow statistics request within 10000 ms". */
    static String unreadable(String request, Throwable t) {
        Throwable c = t;
        while ((c instanceof CompletionException || c instanceof ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        if (c instanceof TimeoutException) {
            Matcher m = UNANSWERED_AFTER.matcher(String.valueOf(c.getMessage()));
            return "the switch did not answer the " + request + (m.find() ? " within " + m.group(1) + " ms"
                    : " in time (" + c.getMessage() + ")");
        }
        if (c instanceof OFErrorException e) {
            return "the switch refused the " + request + ": " + Errors.describe(e.getError());
        }
        return "the " + request + " failed: " + Errors.describe(c);
    }

    // ---- reading ----

    /**
     * Reads the static flows, and the groups and meters when asked (OpenFlow 1.3 on); a part not
     * asked for reads as empty, a part that cannot be read as null, with the reason in {@code unreadable}.
     */
    private CompletableFuture<SwitchState> read(OFSwitch sw, boolean withGroups, boolean withMeters, List<String> unreadable) {
        OFFactory f = sw.getFactory();
        OFVersion v = f.getVersion();
        OFFlowStatsRequest.Builder flowRequest = f.buildFlowStatsRequest().setMatch(f.buildMatch().build())
                .setOutPort(OFPort.ANY).setTableId(TableId.ALL);
        if (v != OFVersion.OF_10) {
            flowRequest.setOutGroup(OFGroup.ANY).setCookie(Translator.cookie(FlowEntry.builder(sw.getId(), "x").build()))
                    .setCookieMask(Translator.APP_MASK);
        }
        // Why each part (flows, groups, meters) could not be read; read once all parts are in, so in this order.
        String[] why = new String[3];
        CompletableFuture<List<OFFlowStatsEntry>> flows = sw.requestStatistics(flowRequest.build())
                .thenApply(replies -> {
                    List<OFFlowStatsEntry> all = new ArrayList<>();
                    for (OFFlowStatsReply r : replies) {
                        all.addAll(r.getEntries());
                    }
                    return all;
                }).exceptionally(e -> {
                    why[0] = unreadable("flow statistics request", e);
                    return null;
                });
        CompletableFuture<Map<Long, OFGroupDescStatsEntry>> groups = CompletableFuture.completedFuture(Map.of());
        if (withGroups && v.compareTo(OFVersion.OF_13) >= 0) {
            groups = sw.requestStatistics(f.buildGroupDescStatsRequest().build()).thenApply(replies -> {
                Map<Long, OFGroupDescStatsEntry> byId = new HashMap<>();
                for (OFGroupDescStatsReply r : replies) {
                    for (OFGroupDescStatsEntry g : r.getEntries()) {
                        byId.put(Integer.toUnsignedLong(g.getGroup().getGroupNumber()), g);
                    }
                }
                return byId;
            }).exceptionally(e -> {
                why[1] = unreadable("group description request", e);
                return null;
            });
        }
        CompletableFuture<Map<Long, OFMeterConfig>> meters = CompletableFuture.completedFuture(Map.of());
        if (withMeters && v.compareTo(OFVersion.OF_13) >= 0) {
            meters = sw.requestStatistics(f.buildMeterConfigStatsRequest().setMeterId(0xffffffffL).build())
                    .thenApply(replies -> {
                        Map<Long, OFMeterConfig> byId = new HashMap<>();
                        for (OFMeterConfigStatsReply r : replies) {
                            for (OFMeterConfig m : r.getEntries()) {
                                byId.put(m.getMeterId(), m);
                            }
                        }
                        return byId;
                    }).exceptionally(e -> {
                        why[2] = unreadable("meter configuration request", e);
                        return null;
                    });
        }
        CompletableFuture<Map<Long, OFGroupDescStatsEntry>> g = groups;
        CompletableFuture<Map<Long, OFMeterConfig>> m = meters;
        return CompletableFuture.allOf(flows, g, m).thenApply(x -> {
            for (String reason : why) {
                if (reason != null) {
                    unreadable.add(reason);
                }
            }
            List<OFFlowStatsEntry> entries = flows.join();
            if (entries == null) {
                return new SwitchState(null, List.of(), g.join(), m.join());
            }
            Map<FlowShape.Key, FlowShape> byKey = new HashMap<>();
            List<OFFlowStatsEntry> ours = new ArrayList<>();
            for (OFFlowStatsEntry e : entries) {
                // OpenFlow 1.0 cannot filter by cookie: filter here, so other apps' flows stay untouched.
                if (Translator.isStatic(e.getCookie())) {
                    FlowShape shape = FlowShape.of(e);
                    byKey.put(shape.key(), shape);
                    ours.add(e);
                }
            }
            return new SwitchState(byKey, ours, g.join(), m.join());
        });
    }

    // ---- planning ----

    private static final class Plan {
        final List<Pusher.Op> ops = new ArrayList<>();
        final Map<String, OFFlowAdd> flows = new LinkedHashMap<>();
        final Set<String> pushed = new HashSet<>();
        int added;
        int removed;
        int unchanged;
        final Set<Long> deletedGroups = new HashSet<>();
        final Set<Long> deletedMeters = new HashSet<>();
    }

    private Plan plan(OFSwitch sw, Translator t, List<StaticEntry> entries, OwnedIds owned, SwitchState s,
            Map<String, StaticEntry> pushed) {
        Plan plan = new Plan();
        List<MeterEntry> meters = new ArrayList<>();
        List<GroupEntry> groups = new ArrayList<>();
        List<FlowEntry> flows = new ArrayList<>();
        for (StaticEntry e : entries) {
            if (e instanceof MeterEntry m) {
                meters.add(m);
            } else if (e instanceof GroupEntry g) {
                groups.add(g);
            } else if (e instanceof FlowEntry f) {
                flows.add(f);
            }
        }
        // Meters and groups before the flows that use them; groups that others point to first.
        for (MeterEntry m : meters) {
            OFMeterConfig present = s.meters() == null ? null : s.meters().get(m.meterId());
            if (s.meters() != null && present != null && sameMeter(t, m, present)) {
                plan.unchanged++;
                continue;
            }
            if (s.meters() == null && m.equals(pushed.get(m.name()))) {
                continue; // unreadable, and sent already on this connection
            }
            plan.pushed.add(m.name());
            plan.added++;
            if (s.meters() == null) {
                plan.ops.add(new Pusher.Op(m.name(), "meter " + m.meterId() + " add", t.meterAdd(m), true));
                plan.ops.add(new Pusher.Op(m.name(), "meter " + m.meterId() + " modify", t.meterModify(m), false));
            } else if (present == null) {
                plan.ops.add(new Pusher.Op(m.name(), "meter " + m.meterId() + " add", t.meterAdd(m), false));
            } else {
                plan.ops.add(new Pusher.Op(m.name(), "meter " + m.meterId() + " modify", t.meterModify(m), false));
            }
        }
        for (GroupEntry g : GroupOrder.sort(groups)) {
            OFGroupDescStatsEntry present = s.groups() == null ? null : s.groups().get(g.groupId());
            if (s.groups() != null && present != null && sameGroup(t, g, present)) {
                plan.unchanged++;
                continue;
            }
            if (s.groups() == null && g.equals(pushed.get(g.name()))) {
                continue;
            }
            plan.pushed.add(g.name());
            plan.added++;
            if (s.groups() == null) {
                plan.ops.add(new Pusher.Op(g.name(), "group " + g.groupId() + " add", t.groupAdd(g), true));
                plan.ops.add(new Pusher.Op(g.name(), "group " + g.groupId() + " modify", t.groupModify(g), false));
            } else if (present == null) {
                plan.ops.add(new Pusher.Op(g.name(), "group " + g.groupId() + " add", t.groupAdd(g), false));
            } else {
                plan.ops.add(new Pusher.Op(g.name(), "group " + g.groupId() + " modify", t.groupModify(g), false));
            }
        }
        Set<FlowShape.Key> wanted = new HashSet<>();
        List<Pusher.Op> flowAdds = new ArrayList<>();
        for (FlowEntry f : flows) {
            OFFlowAdd add = t.flowAdd(f);
            FlowShape shape = FlowShape.of(add);
            wanted.add(shape.key());
            plan.flows.put(f.name(), add);
            if (s.flows() != null && shape.equals(s.flows().get(shape.key()))) {
                plan.unchanged++;
                continue;
            }
            if (s.flows() == null && f.equals(pushed.get(f.name()))) {
                continue;
            }
            plan.pushed.add(f.name());
            plan.added++;
            flowAdds.add(new Pusher.Op(f.name(), "flow " + f.name() + " add", add, false));
        }
        // Stale static flows go before the adds, so a re-defined flow is not removed after being added.
        if (s.flows() != null && removeStale) {
            for (OFFlowStatsEntry e : s.staleCandidates()) {
                if (!wanted.contains(FlowShape.of(e).key())) {
                    plan.ops.add(new Pusher.Op(null, "stale flow removal", staleDelete(sw.getFactory(), e), false));
                    plan.removed++;
                }
            }
        }
        plan.ops.addAll(flowAdds);
        Set<Long> definedGroups = new HashSet<>();
        groups.forEach(g -> definedGroups.add(g.groupId()));
        for (Long id : owned.groups()) {
            if (removeStale && !definedGroups.contains(id)) {
                plan.ops.add(new Pusher.Op(null, "stale group " + id + " removal", t.groupDelete(id), false));
                plan.deletedGroups.add(id);
                plan.removed++;
            }
        }
        Set<Long> definedMeters = new HashSet<>();
        meters.forEach(m -> definedMeters.add(m.meterId()));
        for (Long id : owned.meters()) {
            if (removeStale && !definedMeters.contains(id)) {
                plan.ops.add(new Pusher.Op(null, "stale meter " + id + " removal", t.meterDelete(id), false));
                plan.deletedMeters.add(id);
                plan.removed++;
            }
        }
        return plan;
    }

    private static OFFlowDeleteStrict staleDelete(OFFactory f, OFFlowStatsEntry e) {
        OFFlowDeleteStrict.Builder b = f.buildFlowDeleteStrict().setPriority(e.getPriority()).setMatch(e.getMatch())
                .setOutPort(OFPort.ANY);
        if (f.getVersion() != OFVersion.OF_10) {
            b.setTableId(e.getTableId()).setOutGroup(OFGroup.ANY).setCookie(e.getCookie())
                    .setCookieMask(org.projectfloodlight.openflow.types.U64.NO_MASK);
        }
        return b.build();
    }

    private static boolean sameGroup(Translator t, GroupEntry g, OFGroupDescStatsEntry present) {
        OFGroupType type = t.groupAdd(g).getGroupType();
        List<OFBucket> buckets = t.buckets(g);
        return present.getGroupType() == type && present.getBuckets().equals(buckets);
    }

    private static boolean sameMeter(Translator t, MeterEntry m, OFMeterConfig present) {
        Set<OFMeterFlags> flags = t.meterAdd(m).getFlags();
        List<OFMeterBand> bands = t.meterBands(m);
        return present.getFlags().equals(flags) && new HashSet<>(present.getEntries()).equals(new HashSet<>(bands));
    }

    // ---- reporting ----

    private Report report(Translator t, List<StaticEntry> entries, Plan plan, Pushed pushed, SwitchState before,
            SwitchState after, OwnedIds ownedBefore, List<String> problems, List<String> unreadable) {
        Map<String, String> refused = new HashMap<>();
        for (Pusher.Refusal r : pushed.refusals()) {
            if (r.op().mayFail()) {
                continue;
            }
            if (r.op().entry() == null) {
                problems.add(r.describe());
            } else {
                refused.merge(r.op().entry(), r.describe(), (a, b) -> a + "; " + b);
            }
        }
        OwnedIds owned = ownedBefore.copy();
        owned.groups().removeAll(plan.deletedGroups);
        owned.meters().removeAll(plan.deletedMeters);
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        for (StaticEntry e : entries) {
            boolean sent = plan.pushed.contains(e.name());
            String error = refused.get(e.name());
            Outcome outcome;
            if (error != null) {
                outcome = new Outcome(EntryStatus.State.FAILED, error);
            } else if (sent && pushed.failure() != null) {
                outcome = new Outcome(EntryStatus.State.UNVERIFIED, "pushed, but the switch did not confirm it: "
                        + pushed.failure());
            } else if (!readable(e, before)) {
                // Not sent: pushed before on this connection, and still not verifiable; its state stays.
                outcome = sent ? new Outcome(EntryStatus.State.UNVERIFIED, "pushed without being verified: "
                        + String.join("; ", unreadable)) : null;
            } else {
                String missing = missingAfter(t, e, plan, after);
                outcome = missing != null ? new Outcome(EntryStatus.State.FAILED, missing) : Outcome.INSTALLED;
            }
            if (outcome != null) {
                outcomes.put(e.name(), outcome);
            }
            if (outcome == null || outcome.state() != EntryStatus.State.FAILED || !sent) {
                if (e instanceof GroupEntry g) {
                    owned.groups().add(g.groupId());
                } else if (e instanceof MeterEntry m) {
                    owned.meters().add(m.meterId());
                }
            } else if (e instanceof GroupEntry g) {
                // A refused group may still be on the switch from before: keep owning it, so it is cleaned up.
                if (after.groups() != null && after.groups().containsKey(g.groupId())) {
                    owned.groups().add(g.groupId());
                }
            } else if (e instanceof MeterEntry m) {
                if (after.meters() != null && after.meters().containsKey(m.meterId())) {
                    owned.meters().add(m.meterId());
                }
            }
        }
        return new Report(outcomes, plan.added, plan.removed, plan.unchanged, owned, List.copyOf(problems),
                List.copyOf(unreadable), pushed.failure(), false);
    }

    /** Whether the first read told what the switch holds of this entry's kind. */
    private static boolean readable(StaticEntry e, SwitchState before) {
        if (e instanceof GroupEntry) {
            return before.groups() != null;
        }
        if (e instanceof MeterEntry) {
            return before.meters() != null;
        }
        return before.flows() != null;
    }

    /** Why an entry is not as defined on the switch after the push, or null when it is (or cannot be told). */
    private static String missingAfter(Translator t, StaticEntry e, Plan plan, SwitchState after) {
        if (e instanceof FlowEntry f && after.flows() != null) {
            FlowShape shape = FlowShape.of(plan.flows.get(f.name()));
            FlowShape present = after.flows().get(shape.key());
            if (present == null) {
                return "not on the switch after installation: the switch refused it";
            }
            if (!present.equals(shape)) {
                return "on the switch with other instructions, timeouts or cookie than defined";
            }
        } else if (e instanceof GroupEntry g && after.groups() != null) {
            OFGroupDescStatsEntry present = after.groups().get(g.groupId());
            if (present == null) {
                return "group " + g.groupId() + " is not on the switch after installation: the switch refused it";
            }
            if (!sameGroup(t, g, present)) {
                return "group " + g.groupId() + " is on the switch with other buckets than defined";
            }
        } else if (e instanceof MeterEntry m && after.meters() != null) {
            OFMeterConfig present = after.meters().get(m.meterId());
            if (present == null) {
                return "meter " + m.meterId() + " is not on the switch after installation: the switch refused it";
            }
            if (!sameMeter(t, m, present)) {
                return "meter " + m.meterId() + " is on the switch with other bands or flags than defined";
            }
        }
        return null;
    }

    /** Actions that point at groups, for ordering. */
    static Set<Long> groupsUsed(List<Action> actions) {
        Set<Long> ids = new HashSet<>();
        for (Action a : actions) {
            if (a instanceof Action.Group g) {
                ids.add(g.groupId());
            }
        }
        return ids;
    }
}
