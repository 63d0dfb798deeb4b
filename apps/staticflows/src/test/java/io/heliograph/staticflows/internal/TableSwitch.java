package io.heliograph.staticflows.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Function;

import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFBarrierRequest;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDeleteStrict;
import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.OFFlowStatsRequest;
import org.projectfloodlight.openflow.protocol.OFGroupAdd;
import org.projectfloodlight.openflow.protocol.OFGroupDelete;
import org.projectfloodlight.openflow.protocol.OFGroupDescStatsEntry;
import org.projectfloodlight.openflow.protocol.OFGroupDescStatsRequest;
import org.projectfloodlight.openflow.protocol.OFGroupMod;
import org.projectfloodlight.openflow.protocol.OFGroupModFailedCode;
import org.projectfloodlight.openflow.protocol.OFGroupModify;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFMeterConfig;
import org.projectfloodlight.openflow.protocol.OFMeterConfigStatsRequest;
import org.projectfloodlight.openflow.protocol.OFMeterMod;
import org.projectfloodlight.openflow.protocol.OFMeterModFailedCode;
import org.projectfloodlight.openflow.protocol.OFStatsRequest;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.core.OFErrorException;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.testing.FakeSwitch;

/**
 * The shared fake switch with a flow table, groups and meters that follow the messages written to
 * it, answering flow, group-desc and meter-config statistics from them. It can refuse messages with
 * an ERROR (sent to {@link #errors} when the switch is "announced", dropped otherwise, like the core
 * does during initialization), leave barriers unanswered, and leave statistics requests unanswered
 * or refuse them ({@link #statistics}).
 */
final class TableSwitch extends FakeSwitch {

    /** The flow table: identity (table, priority, match) to the flow as added. */
    final Map<FlowShape.Key, OFFlowAdd> flows = new LinkedHashMap<>();
    final Map<Long, OFGroupMod> groups = new LinkedHashMap<>();
    final Map<Long, OFMeterMod> meters = new LinkedHashMap<>();
    /** Where ERRORs go; null drops them (a switch being initialized). */
    BiConsumer<OFSwitch, OFErrorMsg> errors;
    /** Returns an error to refuse a message with, or null to accept it. */
    Function<OFMessage, OFErrorMsg> refuse = m -> null;
    boolean answerBarriers = true;
    /** How statistics requests are answered. */
    volatile Statistics statistics = Statistics.ANSWER;
    /** Statistics requests held unanswered ({@link Statistics#HOLD}), for the test to fail or answer. */
    final List<CompletableFuture<List<OFMessage>>> held = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final OFFactory factory;

    /** How the switch answers statistics requests. */
    enum Statistics {
        /** From its tables, at once. */
        ANSWER,
        /** Never: the core gives up after its request timeout (10 s), as it does for a silent or late switch. */
        TIMEOUT,
        /** With an OpenFlow error, BAD_REQUEST/BAD_STAT: a switch that does not serve these statistics. */
        REFUSE,
        /** Not yet: the request waits in {@link #held} for the test. */
        HOLD
    }

    /** The core's failure for a request unanswered within its request timeout, as it words it. */
    static TimeoutException unanswered(OFMessage request) {
        return new TimeoutException(request.getType() + " xid " + request.getXid() + " to fake unanswered after 10000 ms");
    }

    TableSwitch(long dpid, OFVersion version, int tables, int... portNumbers) {
        super(dpid, version);
        this.factory = getFactory();
        for (int p : portNumbers) {
            setPort(p, true);
        }
        setFeatures(factory.buildFeaturesReply().setDatapathId(getId()).setNTables((short) tables).build());
        setDescription(factory.buildDescStatsReply().build());
        onWrite(this::follow);
        answerWith(this::answer);
    }

    /** Puts a flow on the switch as if another app (or an earlier run) had added it. */
    void preload(OFFlowAdd add) {
        flows.put(FlowShape.of(add).key(), add);
    }

    /** What the switch does with a message written to it: refuse it, or apply it to its tables. */
    private void follow(OFMessage message) {
        OFErrorMsg error = refuse.apply(message);
        if (error == null) {
            error = apply(message);
        }
        if (error != null && errors != null) {
            errors.accept(this, error.createBuilder().setXid(message.getXid()).build());
        }
    }

    /** Applies a message to the tables; returns the error a switch would answer, or null. */
    private OFErrorMsg apply(OFMessage m) {
        if (m instanceof OFFlowAdd add) {
            flows.put(FlowShape.of(add).key(), add);
        } else if (m instanceof OFFlowDeleteStrict del) {
            FlowShape.Key key = FlowShape.key(m.getVersion() == OFVersion.OF_10 ? 0 : del.getTableId().getValue(),
                    del.getPriority(), del.getMatch());
            OFFlowAdd present = flows.get(key);
            if (present != null && (m.getVersion() == OFVersion.OF_10
                    || (present.getCookie().getValue() & del.getCookieMask().getValue())
                            == (del.getCookie().getValue() & del.getCookieMask().getValue()))) {
                flows.remove(key);
            }
        } else if (m instanceof OFGroupAdd g) {
            long gid = Integer.toUnsignedLong(g.getGroup().getGroupNumber());
            if (groups.containsKey(gid)) {
                return factory.errorMsgs().buildGroupModFailedErrorMsg().setCode(OFGroupModFailedCode.GROUP_EXISTS).build();
            }
            groups.put(gid, g);
        } else if (m instanceof OFGroupModify g) {
            long gid = Integer.toUnsignedLong(g.getGroup().getGroupNumber());
            if (!groups.containsKey(gid)) {
                return factory.errorMsgs().buildGroupModFailedErrorMsg().setCode(OFGroupModFailedCode.UNKNOWN_GROUP).build();
            }
            groups.put(gid, g);
        } else if (m instanceof OFGroupDelete g) {
            groups.remove(Integer.toUnsignedLong(g.getGroup().getGroupNumber()));
        } else if (m instanceof OFMeterMod mm) {
            switch (mm.getCommand()) {
                case ADD -> {
                    if (meters.containsKey(mm.getMeterId())) {
                        return factory.errorMsgs().buildMeterModFailedErrorMsg().setCode(OFMeterModFailedCode.METER_EXISTS).build();
                    }
                    meters.put(mm.getMeterId(), mm);
                }
                case MODIFY -> {
                    if (!meters.containsKey(mm.getMeterId())) {
                        return factory.errorMsgs().buildMeterModFailedErrorMsg().setCode(OFMeterModFailedCode.UNKNOWN_METER).build();
                    }
                    meters.put(mm.getMeterId(), mm);
                }
                case DELETE -> meters.remove(mm.getMeterId());
                default -> {
                }
            }
        }
        return null;
    }

    /** Statistics from the tables, and barriers; anything else is not what staticflows asks. */
    private CompletableFuture<List<OFMessage>> answer(OFMessage request) {
        if (request instanceof OFStatsRequest<?>) {
            switch (statistics) {
                case TIMEOUT -> {
                    return CompletableFuture.failedFuture(unanswered(request));
                }
                case REFUSE -> {
                    return CompletableFuture.failedFuture(new OFErrorException(factory.errorMsgs().buildBadRequestErrorMsg()
                            .setCode(OFBadRequestCode.BAD_STAT).build()));
                }
                case HOLD -> {
                    CompletableFuture<List<OFMessage>> later = new CompletableFuture<>();
                    held.add(later);
                    return later;
                }
                default -> {
                }
            }
        }
        if (request instanceof OFBarrierRequest) {
            if (!answerBarriers) {
                return CompletableFuture.failedFuture(new TimeoutException("BARRIER_REQUEST xid 7 to fake unanswered after 10 ms"));
            }
            return CompletableFuture.completedFuture(List.of(factory.buildBarrierReply().build()));
        }
        if (request instanceof OFFlowStatsRequest fr) {
            List<OFFlowStatsEntry> entries = new ArrayList<>();
            for (OFFlowAdd add : flows.values()) {
                if (fr.getVersion() != OFVersion.OF_10) {
                    long mask = fr.getCookieMask().getValue();
                    if ((add.getCookie().getValue() & mask) != (fr.getCookie().getValue() & mask)) {
                        continue;
                    }
                }
                entries.add(entry(add));
            }
            return CompletableFuture.completedFuture(List.of(factory.buildFlowStatsReply().setEntries(entries).build()));
        }
        if (request instanceof OFGroupDescStatsRequest) {
            List<OFGroupDescStatsEntry> entries = new ArrayList<>();
            for (OFGroupMod g : groups.values()) {
                entries.add(factory.buildGroupDescStatsEntry().setGroup(g.getGroup()).setGroupType(g.getGroupType())
                        .setBuckets(g.getBuckets()).build());
            }
            return CompletableFuture.completedFuture(List.of(factory.buildGroupDescStatsReply().setEntries(entries).build()));
        }
        if (request instanceof OFMeterConfigStatsRequest) {
            List<OFMeterConfig> entries = new ArrayList<>();
            for (OFMeterMod m : meters.values()) {
                entries.add(factory.buildMeterConfig().setMeterId(m.getMeterId()).setFlags(m.getFlags())
                        .setEntries(m.getVersion() == OFVersion.OF_13 ? m.getMeters() : m.getBands()).build());
            }
            return CompletableFuture.completedFuture(List.of(factory.buildMeterConfigStatsReply().setEntries(entries).build()));
        }
        return CompletableFuture.failedFuture(new UnsupportedOperationException(request.getType().toString()));
    }

    private OFFlowStatsEntry entry(OFFlowAdd add) {
        OFFlowStatsEntry.Builder b = factory.buildFlowStatsEntry().setPriority(add.getPriority())
                .setMatch(add.getMatch()).setCookie(add.getCookie()).setIdleTimeout(add.getIdleTimeout())
                .setHardTimeout(add.getHardTimeout());
        if (add.getVersion() == OFVersion.OF_10) {
            b.setTableId(TableId.of(0)).setActions(add.getActions());
        } else {
            b.setTableId(add.getTableId()).setInstructions(add.getInstructions());
        }
        if (add.getVersion().compareTo(OFVersion.OF_13) >= 0) {
            b.setFlags(add.getFlags());
        }
        if (add.getVersion().compareTo(OFVersion.OF_15) >= 0) {
            b.setStats(factory.buildStatV6().build());
        } else {
            b.setPacketCount(U64.ZERO).setByteCount(U64.ZERO);
        }
        return b.build();
    }
}
