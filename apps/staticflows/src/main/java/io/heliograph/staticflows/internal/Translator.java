package io.heliograph.staticflows.internal;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.projectfloodlight.openflow.protocol.OFBucket;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDeleteStrict;
import org.projectfloodlight.openflow.protocol.OFFlowModFlags;
import org.projectfloodlight.openflow.protocol.OFGroupBucket;
import org.projectfloodlight.openflow.protocol.OFGroupMod;
import org.projectfloodlight.openflow.protocol.OFGroupType;
import org.projectfloodlight.openflow.protocol.OFMeterFlags;
import org.projectfloodlight.openflow.protocol.OFMeterMod;
import org.projectfloodlight.openflow.protocol.OFMeterModCommand;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.action.OFActions;
import org.projectfloodlight.openflow.protocol.instruction.OFInstruction;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructions;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.meterband.OFMeterBand;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IpDscp;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.OFVlanVidMatch;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.TransportPort;
import org.projectfloodlight.openflow.types.U64;
import org.projectfloodlight.openflow.types.VlanPcp;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.FlowFlag;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.MeterEntry;

/**
 * Turns validated entries into the OpenFlow messages of one switch's version. Entries must have
 * passed {@link EntryValidator} for that version; what it refuses is not expected here.
 */
final class Translator {

    /** The top 16 bits of every static flow's cookie: "SF". Reconciliation touches only these flows. */
    static final long APP_ID = 0x5346L;
    static final long APP_COOKIE = APP_ID << 48;
    static final U64 APP_MASK = U64.of(0xffffL << 48);

    private final OFFactory factory;
    private final OFVersion version;

    Translator(OFFactory factory) {
        this.factory = factory;
        this.version = factory.getVersion();
    }

    static U64 cookie(FlowEntry f) {
        return U64.of(APP_COOKIE | f.cookie());
    }

    static boolean isStatic(U64 cookie) {
        return (cookie.getValue() & APP_MASK.getValue()) == APP_COOKIE;
    }

    Match match(FlowEntry f) {
        Match.Builder b = factory.buildMatch();
        // EnumMap order: prerequisites (eth_type, ip_proto) come before the fields that need them.
        Map<Field, FieldValue> fields = EntryValidator.parseMatch(f.match(), new ArrayList<>());
        fields.values().forEach(v -> v.applyTo(b));
        return b.build();
    }

    OFFlowAdd flowAdd(FlowEntry f) {
        OFFlowAdd.Builder b = factory.buildFlowAdd()
                .setCookie(cookie(f))
                .setPriority(f.priority())
                .setIdleTimeout(f.idleTimeout())
                .setHardTimeout(f.hardTimeout())
                .setBufferId(OFBufferId.NO_BUFFER)
                .setMatch(match(f))
                .setFlags(flags(f.flags()));
        if (version == OFVersion.OF_10) {
            b.setActions(actions(f.applyActions()));
        } else {
            b.setTableId(TableId.of(f.table())).setInstructions(instructions(f));
        }
        return b.build();
    }

    /** Removes exactly this entry's flow: same table, priority and match, and our cookie. */
    OFFlowDeleteStrict flowDelete(FlowEntry f) {
        OFFlowDeleteStrict.Builder b = factory.buildFlowDeleteStrict()
                .setPriority(f.priority())
                .setMatch(match(f))
                .setOutPort(OFPort.ANY);
        if (version != OFVersion.OF_10) {
            b.setTableId(TableId.of(f.table())).setOutGroup(OFGroup.ANY).setCookie(cookie(f))
                    .setCookieMask(U64.NO_MASK);
        }
        return b.build();
    }

    List<OFInstruction> instructions(FlowEntry f) {
        OFInstructions in = factory.instructions();
        List<OFInstruction> list = new ArrayList<>();
        List<OFAction> apply = actions(f.applyActions());
        if (f.meter() != null) {
            if (version.compareTo(OFVersion.OF_15) >= 0) {
                // OpenFlow 1.5 replaced the meter instruction by a meter action, first in the list.
                apply.add(0, factory.actions().meter(f.meter()));
            } else {
                list.add(in.meter(f.meter()));
            }
        }
        if (!apply.isEmpty()) {
            list.add(in.applyActions(apply));
        }
        if (f.clearActions()) {
            list.add(in.clearActions());
        }
        if (!f.writeActions().isEmpty()) {
            list.add(in.writeActions(actions(f.writeActions())));
        }
        if (f.writeMetadata() != null) {
            list.add(in.writeMetadata(U64.of(f.writeMetadata().value()), U64.of(f.writeMetadata().mask())));
        }
        if (f.gotoTable() != null) {
            list.add(in.gotoTable(TableId.of(f.gotoTable())));
        }
        return list;
    }

    List<OFAction> actions(List<Action> actions) {
        OFActions a = factory.actions();
        List<OFAction> out = new ArrayList<>();
        for (Action action : actions) {
            if (action instanceof Action.Output o) {
                out.add(a.output(o.port(), o.maxLen()));
            } else if (action instanceof Action.Group g) {
                out.add(a.group(OFGroup.of((int) g.groupId())));
            } else if (action instanceof Action.SetField s) {
                out.add(setField(s));
            } else if (action instanceof Action.PushVlan p) {
                out.add(a.pushVlan(EthType.of(p.ethertype())));
            } else if (action instanceof Action.PopVlan) {
                out.add(version == OFVersion.OF_10 ? a.stripVlan() : a.popVlan());
            } else if (action instanceof Action.PushMpls p) {
                out.add(a.pushMpls(EthType.of(p.ethertype())));
            } else if (action instanceof Action.PopMpls p) {
                out.add(a.popMpls(EthType.of(p.ethertype())));
            } else if (action instanceof Action.SetQueue q) {
                out.add(a.setQueue(q.queueId()));
            } else if (action instanceof Action.DecNwTtl) {
                out.add(a.decNwTtl());
            }
        }
        return out;
    }

    private OFAction setField(Action.SetField s) {
        Field field = Field.byName(s.field());
        FieldValue v = field.parse(s.value());
        OFActions a = factory.actions();
        if (version != OFVersion.OF_10) {
            return a.setField(v.toOxm(factory.oxms()));
        }
        // OpenFlow 1.0 has one action per rewritable field.
        return switch (field) {
            case ETH_SRC -> a.setDlSrc((MacAddress) v.value());
            case ETH_DST -> a.setDlDst((MacAddress) v.value());
            case VLAN_VID -> a.setVlanVid(VlanVid.ofVlan(((OFVlanVidMatch) v.value()).getVlan()));
            case VLAN_PCP -> a.setVlanPcp((VlanPcp) v.value());
            case IPV4_SRC -> a.setNwSrc((IPv4Address) v.value());
            case IPV4_DST -> a.setNwDst((IPv4Address) v.value());
            case IP_DSCP -> a.setNwTos((short) (((IpDscp) v.value()).getDscpValue() << 2));
            case TCP_SRC, UDP_SRC -> a.setTpSrc((TransportPort) v.value());
            case TCP_DST, UDP_DST -> a.setTpDst((TransportPort) v.value());
            default -> throw new IllegalArgumentException("OpenFlow 1.0 cannot set " + field.text);
        };
    }

    private Set<OFFlowModFlags> flags(Set<FlowFlag> flags) {
        Set<OFFlowModFlags> out = EnumSet.noneOf(OFFlowModFlags.class);
        for (FlowFlag f : flags) {
            out.add(OFFlowModFlags.valueOf(f.name()));
        }
        return out;
    }

    OFGroupMod groupAdd(GroupEntry g) {
        return groupMod(factory.buildGroupAdd(), g);
    }

    OFGroupMod groupModify(GroupEntry g) {
        return groupMod(factory.buildGroupModify(), g);
    }

    OFGroupMod groupDelete(long groupId) {
        OFGroupMod.Builder b = factory.buildGroupDelete().setGroup(OFGroup.of((int) groupId)).setGroupType(OFGroupType.ALL);
        if (version.compareTo(OFVersion.OF_15) >= 0) {
            b.setCommandBucketId(OFGroupBucket.BUCKET_ALL);
        }
        return b.build();
    }

    private OFGroupMod groupMod(OFGroupMod.Builder b, GroupEntry g) {
        b.setGroup(OFGroup.of((int) g.groupId())).setGroupType(groupType(g.type())).setBuckets(buckets(g));
        if (version.compareTo(OFVersion.OF_15) >= 0) {
            b.setCommandBucketId(OFGroupBucket.BUCKET_ALL);
        }
        return b.build();
    }

    List<OFBucket> buckets(GroupEntry g) {
        List<OFBucket> out = new ArrayList<>();
        for (GroupEntry.Bucket bucket : g.buckets()) {
            OFBucket.Builder b = factory.buildBucket().setActions(actions(bucket.actions()));
            OFPort watchPort = bucket.watchPort() == null ? OFPort.ANY : bucket.watchPort();
            OFGroup watchGroup = bucket.watchGroup() == null ? OFGroup.ANY : OFGroup.of(bucket.watchGroup().intValue());
            if (version.compareTo(OFVersion.OF_15) >= 0) {
                // OpenFlow 1.5 moved weight and watch into properties; see EntryValidator on bucket ids.
                List<org.projectfloodlight.openflow.protocol.OFGroupBucketProp> props = new ArrayList<>();
                if (g.type() == GroupEntry.Type.SELECT) {
                    props.add(factory.groupBucketPropWeight(bucket.weight()));
                }
                if (g.type() == GroupEntry.Type.FAST_FAILOVER) {
                    props.add(factory.groupBucketPropWatchPort(Integer.toUnsignedLong(watchPort.getPortNumber())));
                    props.add(factory.groupBucketPropWatchGroup(Integer.toUnsignedLong(watchGroup.getGroupNumber())));
                }
                b.setBucketId(OFGroupBucket.BUCKET_MAX).setProperties(props);
            } else {
                b.setWeight(bucket.weight()).setWatchPort(watchPort).setWatchGroup(watchGroup);
            }
            out.add(b.build());
        }
        return out;
    }

    private static OFGroupType groupType(GroupEntry.Type t) {
        return switch (t) {
            case ALL -> OFGroupType.ALL;
            case SELECT -> OFGroupType.SELECT;
            case INDIRECT -> OFGroupType.INDIRECT;
            case FAST_FAILOVER -> OFGroupType.FF;
        };
    }

    OFMeterMod meterAdd(MeterEntry m) {
        return meterMod(OFMeterModCommand.ADD, m);
    }

    OFMeterMod meterModify(MeterEntry m) {
        return meterMod(OFMeterModCommand.MODIFY, m);
    }

    OFMeterMod meterDelete(long meterId) {
        OFMeterMod.Builder b = factory.buildMeterMod().setCommand(OFMeterModCommand.DELETE).setMeterId(meterId)
                .setFlags(Set.of());
        return bands(b, List.of()).build();
    }

    private OFMeterMod meterMod(OFMeterModCommand command, MeterEntry m) {
        OFMeterMod.Builder b = factory.buildMeterMod().setCommand(command).setMeterId(m.meterId())
                .setFlags(meterFlags(m.flags()));
        return bands(b, meterBands(m)).build();
    }

    /** Loxi calls the bands "meters" in OpenFlow 1.3 and "bands" later. */
    private OFMeterMod.Builder bands(OFMeterMod.Builder b, List<OFMeterBand> bands) {
        return version == OFVersion.OF_13 ? b.setMeters(bands) : b.setBands(bands);
    }

    List<OFMeterBand> meterBands(MeterEntry m) {
        List<OFMeterBand> out = new ArrayList<>();
        for (MeterEntry.Band band : m.bands()) {
            if (band.type() == MeterEntry.Band.Type.DROP) {
                out.add(factory.meterBands().drop(band.rate(), band.burstSize()));
            } else {
                out.add(factory.meterBands().buildDscpRemark().setRate(band.rate()).setBurstSize(band.burstSize())
                        .setPrecLevel((short) band.precLevel()).build());
            }
        }
        return out;
    }

    private static Set<OFMeterFlags> meterFlags(Set<MeterEntry.Flag> flags) {
        Set<OFMeterFlags> out = EnumSet.noneOf(OFMeterFlags.class);
        for (MeterEntry.Flag f : flags) {
            out.add(OFMeterFlags.valueOf(f.name()));
        }
        return out;
    }
}
