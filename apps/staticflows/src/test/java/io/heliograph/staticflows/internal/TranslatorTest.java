package io.heliograph.staticflows.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowModFlags;
import org.projectfloodlight.openflow.protocol.OFGroupBucket;
import org.projectfloodlight.openflow.protocol.OFGroupType;
import org.projectfloodlight.openflow.protocol.OFMeterFlags;
import org.projectfloodlight.openflow.protocol.OFMeterModCommand;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv4AddressWithMask;
import org.projectfloodlight.openflow.types.IpProtocol;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.OFVlanVidMatch;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.TransportPort;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.FlowFlag;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.GroupEntry.Bucket;
import io.heliograph.staticflows.Metadata;
import io.heliograph.staticflows.MeterEntry;
import io.heliograph.staticflows.MeterEntry.Band;

/** Each expected message is built by hand from the factory, independently of the translator. */
class TranslatorTest {

    private static final DatapathId DPID = DatapathId.of(1);
    private static final long COOKIE = 0x5346L << 48;

    private static FlowEntry web() {
        return FlowEntry.builder(DPID, "web").priority(100).idleTimeout(30).hardTimeout(600).cookie(0x2a)
                .match("eth_type", "0x0800").match("ip_proto", "6").match("ipv4_dst", "10.0.0.0/24").match("tcp_dst", "80")
                .apply(Action.setField("eth_dst", "00:00:00:00:00:02"), Action.output(2))
                .flag(FlowFlag.SEND_FLOW_REM).build();
    }

    private static Match webMatch(OFFactory f) {
        return f.buildMatch().setExact(MatchField.ETH_TYPE, EthType.IPv4).setExact(MatchField.IP_PROTO, IpProtocol.TCP)
                .setMasked(MatchField.IPV4_DST, IPv4AddressWithMask.of("10.0.0.0/24"))
                .setExact(MatchField.TCP_DST, TransportPort.of(80)).build();
    }

    @Test
    void flowOnOpenFlow10UsesActionsAndTheRewriteActions() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_10);
        same(f.buildFlowAdd().setCookie(U64.of(COOKIE | 0x2a)).setPriority(100).setIdleTimeout(30)
                .setHardTimeout(600).setBufferId(OFBufferId.NO_BUFFER).setMatch(webMatch(f))
                .setFlags(Set.of(OFFlowModFlags.SEND_FLOW_REM))
                .setActions(List.of(f.actions().setDlDst(MacAddress.of("00:00:00:00:00:02")), f.actions().output(OFPort.of(2), 0)))
                .build(), new Translator(f).flowAdd(web()));
    }

    @Test
    void flowOnOpenFlow13UsesInstructionsAndSetField() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_13);
        same(f.buildFlowAdd().setTableId(TableId.of(0)).setCookie(U64.of(COOKIE | 0x2a)).setPriority(100)
                .setIdleTimeout(30).setHardTimeout(600).setBufferId(OFBufferId.NO_BUFFER).setMatch(webMatch(f))
                .setFlags(Set.of(OFFlowModFlags.SEND_FLOW_REM))
                .setInstructions(List.of(f.instructions().applyActions(List.of(
                        f.actions().setField(f.oxms().ethDst(MacAddress.of("00:00:00:00:00:02"))),
                        f.actions().output(OFPort.of(2), 0)))))
                .build(), new Translator(f).flowAdd(web()));
    }

    @Test
    void everyInstructionOnOpenFlow13() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_13);
        FlowEntry e = FlowEntry.builder(DPID, "all").table(1).priority(5).match("eth_vlan_vid", "10")
                .apply(new Action.PopVlan()).write(new Action.Group(3)).clearActions(true).meter(4L)
                .writeMetadata(new Metadata(0x10, 0xff)).gotoTable(2).build();
        same(f.buildFlowAdd().setTableId(TableId.of(1)).setCookie(U64.of(COOKIE)).setPriority(5)
                .setBufferId(OFBufferId.NO_BUFFER)
                .setMatch(f.buildMatch().setExact(MatchField.VLAN_VID, OFVlanVidMatch.ofVlan(10)).build())
                .setFlags(Set.of())
                .setInstructions(List.of(f.instructions().meter(4),
                        f.instructions().applyActions(List.of(f.actions().popVlan())),
                        f.instructions().clearActions(),
                        f.instructions().writeActions(List.of(f.actions().group(OFGroup.of(3)))),
                        f.instructions().writeMetadata(U64.of(0x10), U64.of(0xff)),
                        f.instructions().gotoTable(TableId.of(2))))
                .build(), new Translator(f).flowAdd(e));
    }

    @Test
    void openFlow15MetersAreAnAction() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_15);
        FlowEntry e = FlowEntry.builder(DPID, "metered").priority(7).meter(9L).apply(Action.output(1)).build();
        same(f.buildFlowAdd().setTableId(TableId.of(0)).setCookie(U64.of(COOKIE)).setPriority(7)
                .setBufferId(OFBufferId.NO_BUFFER).setMatch(f.buildMatch().build()).setFlags(Set.of())
                .setInstructions(List.of(f.instructions().applyActions(List.of(f.actions().meter(9),
                        f.actions().output(OFPort.of(1), 0)))))
                .build(), new Translator(f).flowAdd(e));
    }

    @Test
    void flowDeleteIsStrictAndLimitedToOurCookie() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_13);
        same(f.buildFlowDeleteStrict().setTableId(TableId.of(0)).setPriority(100).setMatch(webMatch(f))
                .setOutPort(OFPort.ANY).setOutGroup(OFGroup.ANY).setCookie(U64.of(COOKIE | 0x2a)).setCookieMask(U64.NO_MASK)
                .build(), new Translator(f).flowDelete(web()));
        OFFactory f10 = OFFactories.getFactory(OFVersion.OF_10);
        same(f10.buildFlowDeleteStrict().setPriority(100).setMatch(webMatch(f10)).setOutPort(OFPort.ANY).build(),
                new Translator(f10).flowDelete(web()));
    }

    /** Equal but for the xid, which the factory numbers and the pusher sets. */
    private static void same(org.projectfloodlight.openflow.protocol.OFMessage expected,
            org.projectfloodlight.openflow.protocol.OFMessage actual) {
        assertTrue(expected.equalsIgnoreXid(actual), "expected " + expected + "\n but was " + actual);
    }

    @Test
    void controllerOutputSendsTheWholePacket() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_13);
        assertEquals(List.of(f.actions().output(OFPort.CONTROLLER, 0xffff)),
                new Translator(f).actions(List.of(Action.output(OFPort.CONTROLLER))));
    }

    private static GroupEntry select() {
        return new GroupEntry(DPID, "lb", 5, GroupEntry.Type.SELECT,
                List.of(Bucket.weighted(1, Action.output(1)), Bucket.weighted(3, Action.output(2))));
    }

    @Test
    void groupOnOpenFlow13() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_13);
        Translator t = new Translator(f);
        List<org.projectfloodlight.openflow.protocol.OFBucket> buckets = List.of(
                f.buildBucket().setWeight(1).setWatchPort(OFPort.ANY).setWatchGroup(OFGroup.ANY)
                        .setActions(List.of(f.actions().output(OFPort.of(1), 0))).build(),
                f.buildBucket().setWeight(3).setWatchPort(OFPort.ANY).setWatchGroup(OFGroup.ANY)
                        .setActions(List.of(f.actions().output(OFPort.of(2), 0))).build());
        same(f.buildGroupAdd().setGroup(OFGroup.of(5)).setGroupType(OFGroupType.SELECT).setBuckets(buckets).build(),
                t.groupAdd(select()));
        same(f.buildGroupModify().setGroup(OFGroup.of(5)).setGroupType(OFGroupType.SELECT).setBuckets(buckets).build(),
                t.groupModify(select()));
        same(f.buildGroupDelete().setGroup(OFGroup.of(5)).setGroupType(OFGroupType.ALL).build(), t.groupDelete(5));
    }

    @Test
    void fastFailoverWatchesOnOpenFlow13() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_13);
        GroupEntry ff = new GroupEntry(DPID, "ff", 6, GroupEntry.Type.FAST_FAILOVER,
                List.of(Bucket.watching(OFPort.of(1), Action.output(1))));
        same(f.buildGroupAdd().setGroup(OFGroup.of(6)).setGroupType(OFGroupType.FF).setBuckets(List.of(
                f.buildBucket().setWeight(0).setWatchPort(OFPort.of(1)).setWatchGroup(OFGroup.ANY)
                        .setActions(List.of(f.actions().output(OFPort.of(1), 0))).build())).build(),
                new Translator(f).groupAdd(ff));
    }

    @Test
    void groupOnOpenFlow15UsesBucketProperties() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_15);
        GroupEntry one = new GroupEntry(DPID, "lb", 5, GroupEntry.Type.SELECT, List.of(Bucket.weighted(2, Action.output(1))));
        same(f.buildGroupAdd().setGroup(OFGroup.of(5)).setGroupType(OFGroupType.SELECT)
                .setCommandBucketId(OFGroupBucket.BUCKET_ALL)
                .setBuckets(List.of(f.buildBucket().setBucketId(OFGroupBucket.BUCKET_MAX)
                        .setProperties(List.of(f.groupBucketPropWeight(2)))
                        .setActions(List.of(f.actions().output(OFPort.of(1), 0))).build()))
                .build(), new Translator(f).groupAdd(one));
    }

    private static MeterEntry meter() {
        return new MeterEntry(DPID, "limit", 3, Set.of(MeterEntry.Flag.KBPS, MeterEntry.Flag.BURST),
                List.of(Band.drop(10_000, 500), Band.dscpRemark(5_000, 0, 2)));
    }

    @Test
    void meterOnOpenFlow13() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_13);
        Translator t = new Translator(f);
        List<org.projectfloodlight.openflow.protocol.meterband.OFMeterBand> bands = List.of(
                f.meterBands().drop(10_000, 500),
                f.meterBands().buildDscpRemark().setRate(5_000).setBurstSize(0).setPrecLevel((short) 2).build());
        same(f.buildMeterMod().setCommand(OFMeterModCommand.ADD).setMeterId(3)
                .setFlags(Set.of(OFMeterFlags.KBPS, OFMeterFlags.BURST)).setMeters(bands).build(), t.meterAdd(meter()));
        same(f.buildMeterMod().setCommand(OFMeterModCommand.MODIFY).setMeterId(3)
                .setFlags(Set.of(OFMeterFlags.KBPS, OFMeterFlags.BURST)).setMeters(bands).build(), t.meterModify(meter()));
        same(f.buildMeterMod().setCommand(OFMeterModCommand.DELETE).setMeterId(3).setFlags(Set.of())
                .setMeters(List.of()).build(), t.meterDelete(3));
    }

    @Test
    void meterOnOpenFlow15() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_15);
        same(f.buildMeterMod().setCommand(OFMeterModCommand.ADD).setMeterId(3)
                .setFlags(Set.of(OFMeterFlags.KBPS, OFMeterFlags.BURST))
                .setBands(List.of(f.meterBands().drop(10_000, 500),
                        f.meterBands().buildDscpRemark().setRate(5_000).setBurstSize(0).setPrecLevel((short) 2).build()))
                .build(), new Translator(f).meterAdd(meter()));
    }

    @Test
    void everyMessageSerializesOnEveryVersion() {
        // The switch would disconnect on a message that cannot be written: encode each one.
        for (OFVersion v : List.of(OFVersion.OF_13, OFVersion.OF_14, OFVersion.OF_15)) {
            Translator t = new Translator(OFFactories.getFactory(v));
            GroupEntry one = new GroupEntry(DPID, "g", 5, GroupEntry.Type.ALL, List.of(Bucket.of(Action.output(1))));
            for (org.projectfloodlight.openflow.protocol.OFMessage m : List.of(t.flowAdd(web()), t.flowDelete(web()),
                    t.groupAdd(one), t.groupDelete(5), t.meterAdd(meter()), t.meterDelete(3))) {
                io.netty.buffer.ByteBuf buf = io.netty.buffer.Unpooled.buffer();
                m.writeTo(buf);
                assertTrue(buf.readableBytes() >= 8, v + " " + m.getType());
                buf.release();
            }
        }
        Translator t10 = new Translator(OFFactories.getFactory(OFVersion.OF_10));
        io.netty.buffer.ByteBuf buf = io.netty.buffer.Unpooled.buffer();
        t10.flowAdd(web()).writeTo(buf);
        assertEquals(72 + 16 + 8, buf.readableBytes(), "OpenFlow 1.0 flow_mod with set_dl_dst and output");
        buf.release();
    }

    @Test
    void maskedValuesAreNormalisedAsSwitchesReportThem() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_13);
        FlowEntry e = FlowEntry.builder(DPID, "n").match("eth_type", "0x0800").match("ipv4_src", "10.1.2.3/255.255.0.0")
                .match("eth_dst", "00:00:00:00:00:01/ff:ff:ff:ff:ff:ff").match("eth_vlan_vid", "present").build();
        Match m = new Translator(f).match(e);
        assertEquals(IPv4AddressWithMask.of("10.1.0.0/16"), m.getMasked(MatchField.IPV4_SRC));
        assertTrue(m.isExact(MatchField.ETH_DST), "an all-ones mask is an exact match");
        assertEquals(OFVlanVidMatch.PRESENT, m.getMasked(MatchField.VLAN_VID).getMask());
    }

    @Test
    void staticCookiesAreRecognised() {
        assertTrue(Translator.isStatic(U64.of(COOKIE | 0x1234)));
        assertEquals(false, Translator.isStatic(U64.of(0x1234)));
        assertEquals(IPv4Address.of("10.0.0.1"), Field.IPV4_DST.parse("10.0.0.1").value());
    }
}
