package io.heliograph.webui.rest;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.projectfloodlight.openflow.protocol.OFAggregateStatsReply;
import org.projectfloodlight.openflow.protocol.OFBucket;
import org.projectfloodlight.openflow.protocol.OFBucketCounter;
import org.projectfloodlight.openflow.protocol.OFDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFFlowModFlags;
import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.OFGroupDescStatsEntry;
import org.projectfloodlight.openflow.protocol.OFGroupStatsEntry;
import org.projectfloodlight.openflow.protocol.OFMeterBandStats;
import org.projectfloodlight.openflow.protocol.OFMeterConfig;
import org.projectfloodlight.openflow.protocol.OFMeterStats;
import org.projectfloodlight.openflow.protocol.OFPortConfig;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortDescProp;
import org.projectfloodlight.openflow.protocol.OFPortDescPropEthernet;
import org.projectfloodlight.openflow.protocol.OFPortFeatures;
import org.projectfloodlight.openflow.protocol.OFPortState;
import org.projectfloodlight.openflow.protocol.OFPortStatsEntry;
import org.projectfloodlight.openflow.protocol.OFTableStatsEntry;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.action.OFActionGroup;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.protocol.action.OFActionPushVlan;
import org.projectfloodlight.openflow.protocol.action.OFActionSetField;
import org.projectfloodlight.openflow.protocol.action.OFActionSetQueue;
import org.projectfloodlight.openflow.protocol.instruction.OFInstruction;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionApplyActions;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionGotoTable;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionMeter;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionWriteActions;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionWriteMetadata;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.protocol.meterband.OFMeterBand;
import org.projectfloodlight.openflow.protocol.meterband.OFMeterBandDrop;
import org.projectfloodlight.openflow.protocol.meterband.OFMeterBandDscpRemark;
import org.projectfloodlight.openflow.protocol.stat.Stat;
import org.projectfloodlight.openflow.protocol.stat.StatField;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U32;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.core.OFSwitch;
import io.heliograph.webui.rest.SwitchJson.Aggregate;
import io.heliograph.webui.rest.SwitchJson.Band;
import io.heliograph.webui.rest.SwitchJson.Bucket;
import io.heliograph.webui.rest.SwitchJson.Description;
import io.heliograph.webui.rest.SwitchJson.Detail;
import io.heliograph.webui.rest.SwitchJson.Features;
import io.heliograph.webui.rest.SwitchJson.Flow;
import io.heliograph.webui.rest.SwitchJson.Group;
import io.heliograph.webui.rest.SwitchJson.Instruction;
import io.heliograph.webui.rest.SwitchJson.Meter;
import io.heliograph.webui.rest.SwitchJson.Port;
import io.heliograph.webui.rest.SwitchJson.PortStatistics;
import io.heliograph.webui.rest.SwitchJson.Summary;
import io.heliograph.webui.rest.SwitchJson.Table;

/**
 * Loxi messages to {@link SwitchJson} records: the one place that knows which getter a version
 * lacks (Loxi throws UnsupportedOperationException for those; the record then says null).
 */
final class SwitchViews {

    /** Port feature bits of OpenFlow 1.0-1.3 and the speed each names, in kbit/s. */
    private static final Map<OFPortFeatures, Long> FEATURE_SPEEDS = new EnumMap<>(Map.ofEntries(
            Map.entry(OFPortFeatures.PF_10MB_HD, 10_000L), Map.entry(OFPortFeatures.PF_10MB_FD, 10_000L),
            Map.entry(OFPortFeatures.PF_100MB_HD, 100_000L), Map.entry(OFPortFeatures.PF_100MB_FD, 100_000L),
            Map.entry(OFPortFeatures.PF_1GB_HD, 1_000_000L), Map.entry(OFPortFeatures.PF_1GB_FD, 1_000_000L),
            Map.entry(OFPortFeatures.PF_10GB_FD, 10_000_000L), Map.entry(OFPortFeatures.PF_40GB_FD, 40_000_000L),
            Map.entry(OFPortFeatures.PF_100GB_FD, 100_000_000L), Map.entry(OFPortFeatures.PF_1TB_FD, 1_000_000_000L)));

    private SwitchViews() {
    }

    static Summary summary(OFSwitch sw) {
        return new Summary(sw.getId().toString(), VersionNames.of(sw.getVersion()), address(sw),
                instant(sw.getConnectedSince()), sw.getPorts().size(), description(sw.getDescription()),
                sw.getCounters());
    }

    static Detail detail(OFSwitch sw) {
        Instant since = sw.getConnectedSince();
        return new Detail(sw.getId().toString(), VersionNames.of(sw.getVersion()), address(sw), instant(since),
                since == null ? 0 : since.toEpochMilli(), features(sw.getFeatures()),
                description(sw.getDescription()), sw.getCounters());
    }

    static String address(OFSwitch sw) {
        var address = sw.getRemoteAddress();
        if (address == null) {
            return null;
        }
        String host = address.getAddress() != null ? address.getAddress().getHostAddress() : address.getHostString();
        return host + ":" + address.getPort();
    }

    private static String instant(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    static Features features(OFFeaturesReply f) {
        Integer aux = optional(() -> (int) f.getAuxiliaryId().getValue());
        return new Features(f.getNBuffers(), f.getNTables(), aux == null ? 0 : aux,
                f.getCapabilities().stream().map(Enum::name).sorted().toList());
    }

    /** The switch's description, or null while it has not answered the description request. */
    static Description description(OFDescStatsReply d) {
        if (d == null) {
            return null;
        }
        return new Description(d.getMfrDesc(), d.getHwDesc(), d.getSwDesc(), d.getSerialNum(), d.getDpDesc());
    }

    static List<Port> ports(Collection<OFPortDesc> ports) {
        return ports.stream().sorted(Comparator.comparingLong(p -> unsigned(p.getPortNo()))).map(SwitchViews::port)
                .toList();
    }

    static Port port(OFPortDesc p) {
        Set<OFPortFeatures> current = optional(p::getCurr);
        Long currentSpeed = null;
        Long maxSpeed = null;
        if (p.getVersion().compareTo(OFVersion.OF_11) >= 0 && p.getVersion().compareTo(OFVersion.OF_13) <= 0) {
            currentSpeed = p.getCurrSpeed();
            maxSpeed = p.getMaxSpeed();
        } else if (p.getVersion().compareTo(OFVersion.OF_14) >= 0) {
            for (OFPortDescProp prop : p.getProperties()) {
                if (prop instanceof OFPortDescPropEthernet ethernet) {
                    currentSpeed = ethernet.getCurrSpeed();
                    maxSpeed = ethernet.getMaxSpeed();
                }
            }
        } else if (current != null) {
            currentSpeed = current.stream().map(FEATURE_SPEEDS::get).filter(s -> s != null).max(Long::compare)
                    .orElse(null);
        }
        boolean up = !p.getState().contains(OFPortState.LINK_DOWN)
                && !p.getConfig().contains(OFPortConfig.PORT_DOWN);
        return new Port(unsigned(p.getPortNo()), p.getPortNo().toString(), p.getName(), p.getHwAddr().toString(), up,
                names(p.getConfig()), names(p.getState()), current == null ? List.of() : names(current),
                currentSpeed, maxSpeed);
    }

    static Flow flow(OFFlowStatsEntry e) {
        List<Instruction> instructions = e.getVersion() == OFVersion.OF_10
                ? List.of(new Instruction("apply_actions", actions(e.getActions()), null))
                : e.getInstructions().stream().map(SwitchViews::instruction).toList();
        Set<OFFlowModFlags> flags = optional(e::getFlags);
        boolean oxs = e.getVersion().compareTo(OFVersion.OF_15) >= 0;
        return new Flow(e.getTableId().getValue(), e.getPriority(), "0x" + Long.toHexString(e.getCookie().getValue()),
                oxs ? counter(e.getStats(), StatField.PACKET_COUNT) : optional(() -> e.getPacketCount().getValue()),
                oxs ? counter(e.getStats(), StatField.BYTE_COUNT) : optional(() -> e.getByteCount().getValue()),
                oxs ? seconds(e.getStats().get(StatField.DURATION)) : optional(e::getDurationSec),
                e.getIdleTimeout(), e.getHardTimeout(),
                flags == null ? List.of() : names(flags),
                match(e.getMatch()), instructions);
    }

    static Map<String, String> match(Match match) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (MatchField<?> field : match.getMatchFields()) {
            Object value = match.isPartiallyMasked(field) ? match.getMasked(field) : match.get(field);
            fields.put(field.getName(), String.valueOf(value));
        }
        return fields;
    }

    static Instruction instruction(OFInstruction i) {
        if (i instanceof OFInstructionApplyActions apply) {
            return new Instruction("apply_actions", actions(apply.getActions()), null);
        }
        if (i instanceof OFInstructionWriteActions write) {
            return new Instruction("write_actions", actions(write.getActions()), null);
        }
        if (i instanceof OFInstructionGotoTable goTo) {
            return new Instruction("goto_table", null, String.valueOf(goTo.getTableId().getValue()));
        }
        if (i instanceof OFInstructionMeter meter) {
            return new Instruction("meter", null, String.valueOf(meter.getMeterId()));
        }
        if (i instanceof OFInstructionWriteMetadata metadata) {
            return new Instruction("write_metadata", null, metadata.getMetadata() + "/" + metadata.getMetadataMask());
        }
        return new Instruction(i.getType().name().toLowerCase(), null, null);
    }

    /** Actions in ovs-ofctl's spirit: {@code output=2}, {@code set_field=eth_dst->00:00:00:00:00:01}. */
    static List<String> actions(List<OFAction> actions) {
        return actions.stream().map(SwitchViews::action).toList();
    }

    static String action(OFAction a) {
        if (a instanceof OFActionOutput output) {
            return "output=" + output.getPort();
        }
        if (a instanceof OFActionSetField setField) {
            return "set_field=" + setField.getField().getMatchField().getName() + "->" + setField.getField().getValue();
        }
        if (a instanceof OFActionGroup group) {
            return "group=" + group.getGroup().getGroupNumber();
        }
        if (a instanceof OFActionSetQueue queue) {
            return "set_queue=" + queue.getQueueId();
        }
        if (a instanceof OFActionPushVlan push) {
            return "push_vlan=" + push.getEthertype();
        }
        return a.getType().name().toLowerCase();
    }

    static Table table(OFTableStatsEntry e) {
        return new Table(e.getTableId().getValue(), e.getActiveCount(), e.getLookupCount().getValue(),
                e.getMatchedCount().getValue());
    }

    /** Group descriptions joined with their counters by group id. */
    static List<Group> groups(List<OFGroupDescStatsEntry> descriptions, List<OFGroupStatsEntry> counters) {
        Map<Long, OFGroupStatsEntry> byId = new LinkedHashMap<>();
        counters.forEach(c -> byId.put(c.getGroup().getGroupNumber() & 0xffffffffL, c));
        List<Group> groups = new ArrayList<>();
        for (OFGroupDescStatsEntry d : descriptions) {
            long id = d.getGroup().getGroupNumber() & 0xffffffffL;
            OFGroupStatsEntry c = byId.get(id);
            List<Bucket> buckets = new ArrayList<>();
            for (int i = 0; i < d.getBuckets().size(); i++) {
                OFBucket b = d.getBuckets().get(i);
                OFBucketCounter counter = c != null && i < c.getBucketStats().size() ? c.getBucketStats().get(i) : null;
                buckets.add(new Bucket(orZero(optional(b::getWeight)), String.valueOf(optional(b::getWatchPort)),
                        String.valueOf(optional(b::getWatchGroup)), actions(b.getActions()),
                        counter == null ? null : counter.getPacketCount().getValue(),
                        counter == null ? null : counter.getByteCount().getValue()));
            }
            groups.add(new Group(id, d.getGroupType().name(), buckets, c == null ? null : c.getRefCount(),
                    c == null ? null : c.getPacketCount().getValue(), c == null ? null : c.getByteCount().getValue(),
                    c == null ? null : optional(c::getDurationSec)));
        }
        groups.sort(Comparator.comparingLong(Group::groupId));
        return groups;
    }

    /** Meter configurations joined with their counters by meter id. */
    static List<Meter> meters(List<OFMeterConfig> configs, List<OFMeterStats> counters) {
        Map<Long, OFMeterStats> byId = new LinkedHashMap<>();
        counters.forEach(c -> byId.put(c.getMeterId(), c));
        List<Meter> meters = new ArrayList<>();
        for (OFMeterConfig config : configs) {
            OFMeterStats c = byId.get(config.getMeterId());
            List<Band> bands = new ArrayList<>();
            for (int i = 0; i < config.getEntries().size(); i++) {
                OFMeterBand band = config.getEntries().get(i);
                OFMeterBandStats counter = c != null && i < c.getBandStats().size() ? c.getBandStats().get(i) : null;
                bands.add(band(band, counter));
            }
            meters.add(new Meter(config.getMeterId(), names(config.getFlags()), bands,
                    c == null ? null : optional(c::getFlowCount), c == null ? null : c.getPacketInCount().getValue(),
                    c == null ? null : c.getByteInCount().getValue(), c == null ? null : c.getDurationSec()));
        }
        meters.sort(Comparator.comparingLong(Meter::meterId));
        return meters;
    }

    private static Band band(OFMeterBand band, OFMeterBandStats counter) {
        Long packets = counter == null ? null : counter.getPacketBandCount().getValue();
        Long bytes = counter == null ? null : counter.getByteBandCount().getValue();
        if (band instanceof OFMeterBandDrop drop) {
            return new Band("drop", drop.getRate(), drop.getBurstSize(), null, packets, bytes);
        }
        if (band instanceof OFMeterBandDscpRemark remark) {
            return new Band("dscp_remark", remark.getRate(), remark.getBurstSize(), (int) remark.getPrecLevel(),
                    packets, bytes);
        }
        return new Band("type " + band.getType(), 0, 0, null, packets, bytes);
    }

    static PortStatistics portStatistics(OFPortStatsEntry e) {
        return new PortStatistics(unsigned(e.getPortNo()), e.getPortNo().toString(), e.getRxPackets().getValue(),
                e.getTxPackets().getValue(), e.getRxBytes().getValue(), e.getTxBytes().getValue(),
                e.getRxDropped().getValue(), e.getTxDropped().getValue(), e.getRxErrors().getValue(),
                e.getTxErrors().getValue(), optional(() -> e.getRxFrameErr().getValue()),
                optional(() -> e.getRxOverErr().getValue()), optional(() -> e.getRxCrcErr().getValue()),
                optional(() -> e.getCollisions().getValue()), optional(e::getDurationSec));
    }

    static Aggregate aggregate(OFAggregateStatsReply r) {
        if (r.getVersion().compareTo(OFVersion.OF_15) >= 0) {
            U32 flows = r.getStats().get(StatField.FLOW_COUNT);
            return new Aggregate(flows == null ? 0 : flows.getValue(), orZero(counter(r.getStats(), StatField.PACKET_COUNT)),
                    orZero(counter(r.getStats(), StatField.BYTE_COUNT)));
        }
        return new Aggregate(r.getFlowCount(), value(r.getPacketCount()), value(r.getByteCount()));
    }

    /** A counter 1.5 says as an OXS statistics field; null when the switch left it out. */
    private static Long counter(Stat stats, StatField<U64> field) {
        U64 value = stats.get(field);
        return value == null ? null : value.getValue();
    }

    /** The seconds of an OXS duration (seconds in the upper 32 bits, nanoseconds in the lower). */
    private static Long seconds(U64 duration) {
        return duration == null ? null : duration.getValue() >>> 32;
    }

    private static long orZero(Long l) {
        return l == null ? 0 : l;
    }

    static long unsigned(OFPort port) {
        return port.getPortNumber() & 0xffffffffL;
    }

    private static long value(U64 u) {
        return u.getValue();
    }

    private static int orZero(Integer i) {
        return i == null ? 0 : i;
    }

    private static List<String> names(Set<? extends Enum<?>> values) {
        return values.stream().map(Enum::name).sorted().toList();
    }

    /** The getter's value, or null where this OpenFlow version has no such field. */
    private static <T> T optional(Supplier<T> getter) {
        try {
            return getter.get();
        } catch (UnsupportedOperationException e) {
            return null;
        }
    }
}
