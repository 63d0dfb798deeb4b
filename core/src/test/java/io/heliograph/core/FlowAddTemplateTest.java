package io.heliograph.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.exceptions.OFParseError;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

import com.google.common.hash.Hashing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

class FlowAddTemplateTest {

    /** High bits set everywhere they can be, so a sign extension or a short shift shows. */
    private static final long SOURCE = 0xfe_dc_ba_98_76_54L;
    private static final long DESTINATION = 0x80_00_00_00_00_01L;
    private static final U64 COOKIE = U64.of(0x8765_4321_0fed_cba9L);
    private static final int IDLE = 65_535;
    private static final int HARD = 40_000;
    private static final int PRIORITY = 0x8001;
    private static final OFBufferId BUFFER = OFBufferId.of(0xfffe_0001);

    /** Port numbers with their top bits set, within what each version's port field holds. */
    private static OFPort in(OFVersion version) {
        return OFPort.of(version == OFVersion.OF_10 ? 0xfeff : 0xffff_ff00);
    }

    private static OFPort out(OFVersion version) {
        return OFPort.of(version == OFVersion.OF_10 ? 0xfe01 : 0xfeff_ff01);
    }

    /** A learning switch's flow: in_port, eth_src and eth_dst exact → output; the sample's values are placeholders. */
    private static final FlowAddTemplate LEARNED = FlowAddTemplate.of(
            f -> learned(f, OFBufferId.NO_BUFFER, OFPort.of(1), 0, 0, OFPort.of(2)),
            MatchField.IN_PORT, MatchField.ETH_SRC, MatchField.ETH_DST);

    /** The same flow built the ordinary way, with Loxi's builders. */
    private static OFFlowAdd learned(OFFactory f, OFBufferId buffer, OFPort inPort, long source, long destination,
            OFPort outPort) {
        return withOutput(f, f.buildFlowAdd()
                .setCookie(COOKIE)
                .setIdleTimeout(IDLE)
                .setHardTimeout(HARD)
                .setPriority(PRIORITY)
                .setBufferId(buffer)
                .setMatch(f.buildMatch()
                        .setExact(MatchField.IN_PORT, inPort)
                        .setExact(MatchField.ETH_SRC, MacAddress.of(source))
                        .setExact(MatchField.ETH_DST, MacAddress.of(destination))
                        .build()), outPort);
    }

    /** 1.0 carries the actions in the flow-mod; 1.1+ in an apply-actions instruction. */
    private static OFFlowAdd withOutput(OFFactory f, OFFlowAdd.Builder flow, OFPort outPort) {
        List<OFAction> actions = List.of(f.actions().output(outPort, 0));
        if (f.getVersion() == OFVersion.OF_10) {
            return flow.setActions(actions).build();
        }
        return flow.setInstructions(List.of(f.instructions().applyActions(actions))).build();
    }

    private static OFFlowAdd loxi(OFVersion version, OFBufferId buffer, long source, long destination) {
        return learned(OFFactories.getFactory(version), buffer, in(version), source, destination, out(version));
    }

    private static OFFlowAdd loxi(OFVersion version) {
        return loxi(version, BUFFER, SOURCE, DESTINATION);
    }

    private static OFFlowAdd ours(OFVersion version, OFBufferId buffer, long source, long destination) {
        return LEARNED.newFlow(OFFactories.getFactory(version))
                .set(MatchField.IN_PORT, in(version).getPortNumber())
                .set(MatchField.ETH_SRC, source)
                .set(MatchField.ETH_DST, destination)
                .outPort(out(version))
                .bufferId(buffer)
                .build();
    }

    private static OFFlowAdd ours(OFVersion version) {
        return ours(version, BUFFER, SOURCE, DESTINATION);
    }

    /** Loxi's flow with the xid of ours, which comes from the factory. */
    private static OFFlowAdd sameXid(OFFlowAdd loxi, OFFlowAdd ours) {
        return loxi.createBuilder().setXid(ours.getXid()).build();
    }

    private static byte[] wire(OFMessage message) {
        ByteBuf out = Unpooled.buffer();
        message.writeTo(out);
        return ByteBufUtil.getBytes(out);
    }

    /** Fields may be set in any order, and again: the last value counts (the lookup first tries the next in order). */
    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13"})
    void fieldsSetOutOfOrderOrTwiceGiveTheSameBytes(OFVersion version) {
        OFFlowAdd reordered = LEARNED.newFlow(OFFactories.getFactory(version))
                .set(MatchField.ETH_DST, SOURCE)
                .set(MatchField.ETH_SRC, DESTINATION)
                .set(MatchField.ETH_DST, DESTINATION)
                .set(MatchField.IN_PORT, in(version).getPortNumber())
                .set(MatchField.ETH_SRC, SOURCE)
                .outPort(out(version))
                .bufferId(BUFFER)
                .build();
        assertArrayEquals(wire(sameXid(loxi(version), reordered)), wire(reordered));
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_12", "OF_13", "OF_14", "OF_15"})
    void itsBytesAreTheOnesLoxiWritesForTheSameFlow(OFVersion version) {
        OFFlowAdd flow = ours(version);
        assertArrayEquals(wire(sameXid(loxi(version), flow)), wire(flow));
        OFFlowAdd swapped = ours(version, OFBufferId.NO_BUFFER, DESTINATION, SOURCE);
        assertArrayEquals(wire(sameXid(loxi(version, OFBufferId.NO_BUFFER, DESTINATION, SOURCE), swapped)),
                wire(swapped), "no buffer, addresses swapped");
    }

    /** Every field over a range of values: random ones, the extremes, reserved ports. */
    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_12", "OF_13", "OF_14", "OF_15"})
    void itsBytesAreLoxisOverARangeOfValues(OFVersion version) {
        OFFactory f = OFFactories.getFactory(version);
        Random random = new Random(version.ordinal());
        int portBits = version == OFVersion.OF_10 ? 0xfeff : 0xffff_feff;
        List<OFPort> ports = new ArrayList<>(List.of(OFPort.of(1), OFPort.of(portBits), OFPort.LOCAL,
                OFPort.CONTROLLER, OFPort.FLOOD, OFPort.IN_PORT));
        List<Long> macs = new ArrayList<>(List.of(0L, 0xffff_ffff_ffffL, 1L, 0x8000_0000_0000L));
        List<OFBufferId> buffers = new ArrayList<>(List.of(OFBufferId.NO_BUFFER, OFBufferId.of(0), BUFFER));
        for (int i = 0; i < 100; i++) {
            ports.add(OFPort.of(1 + Integer.remainderUnsigned(random.nextInt(), portBits)));
            macs.add(random.nextLong() & 0xffff_ffff_ffffL);
            buffers.add(OFBufferId.of(random.nextInt(0x7fff_ffff)));
        }
        for (int i = 0; i < ports.size(); i++) {
            OFPort inPort = ports.get(i);
            OFPort outPort = ports.get(ports.size() - 1 - i);
            long source = macs.get(i % macs.size());
            long destination = macs.get((i * 7 + 3) % macs.size());
            OFBufferId buffer = buffers.get(i % buffers.size());
            OFFlowAdd flow = LEARNED.newFlow(f)
                    .set(MatchField.IN_PORT, inPort.getPortNumber())
                    .set(MatchField.ETH_SRC, source)
                    .set(MatchField.ETH_DST, destination)
                    .outPort(outPort)
                    .bufferId(buffer)
                    .build();
            OFFlowAdd loxi = sameXid(learned(f, buffer, inPort, source, destination, outPort), flow);
            assertArrayEquals(wire(loxi), wire(flow), () -> "for " + loxi);
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_12", "OF_13", "OF_14", "OF_15"})
    void fieldsNotSetAreTheSamples(OFVersion version) {
        OFFactory f = OFFactories.getFactory(version);
        OFFlowAdd flow = LEARNED.newFlow(f).set(MatchField.ETH_DST, DESTINATION).build();

        OFFlowAdd loxi = learned(f, OFBufferId.NO_BUFFER, OFPort.of(1), 0, DESTINATION, OFPort.of(2));
        assertArrayEquals(wire(sameXid(loxi, flow)), wire(flow));
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_12", "OF_13", "OF_14", "OF_15"})
    void eachFlowHasTheSwitchsNextXid(OFVersion version) {
        OFFactory f = OFFactories.getFactory(version);
        long before = f.nextXid();

        assertEquals(before + 1, LEARNED.newFlow(f).build().getXid());
        assertEquals(before + 2, LEARNED.newFlow(f).build().getXid());
    }

    /** An IPv4 route: eth_type exact and the same for all, the destination address varies; write-actions on 1.1+. */
    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_12", "OF_13", "OF_14", "OF_15"})
    void anIpv4DestinationVariesLikeAnyOtherField(OFVersion version) {
        Function<IPv4Address, Function<OFFactory, OFFlowAdd>> route = address -> f -> {
            Match match = f.buildMatch()
                    .setExact(MatchField.ETH_TYPE, EthType.IPv4)
                    .setExact(MatchField.IPV4_DST, address)
                    .build();
            OFFlowAdd.Builder flow = f.buildFlowAdd().setPriority(7).setMatch(match);
            List<OFAction> actions = List.of(f.actions().output(OFPort.of(3), 0xffff));
            if (f.getVersion() == OFVersion.OF_10) {
                return flow.setActions(actions).build();
            }
            return flow.setInstructions(List.of(f.instructions().writeActions(actions))).build();
        };
        FlowAddTemplate routes = FlowAddTemplate.of(route.apply(IPv4Address.NONE), MatchField.IPV4_DST);
        OFFactory f = OFFactories.getFactory(version);
        IPv4Address destination = IPv4Address.of("192.168.254.1");

        OFFlowAdd flow = routes.newFlow(f).set(MatchField.IPV4_DST, destination.getInt()).build();

        assertArrayEquals(wire(sameXid(route.apply(destination).apply(f), flow)), wire(flow));
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_12", "OF_13", "OF_14", "OF_15"})
    void itAnswersLikeTheLoxiFlow(OFVersion version) {
        OFFlowAdd flow = ours(version);
        OFFlowAdd loxi = sameXid(loxi(version), flow);

        assertEquals(version, flow.getVersion());
        assertEquals(loxi.getType(), flow.getType());
        assertEquals(loxi.getXid(), flow.getXid());
        assertEquals(loxi.getCommand(), flow.getCommand());
        assertEquals(COOKIE, flow.getCookie());
        assertEquals(IDLE, flow.getIdleTimeout());
        assertEquals(HARD, flow.getHardTimeout());
        assertEquals(PRIORITY, flow.getPriority());
        assertEquals(BUFFER, flow.getBufferId());
        assertEquals(loxi.getOutPort(), flow.getOutPort());
        assertEquals(loxi.getFlags(), flow.getFlags());
        assertEquals(in(version), flow.getMatch().get(MatchField.IN_PORT));
        assertEquals(MacAddress.of(SOURCE), flow.getMatch().get(MatchField.ETH_SRC));
        assertEquals(MacAddress.of(DESTINATION), flow.getMatch().get(MatchField.ETH_DST));
        assertTrue(flow.getMatch().isFullyWildcarded(MatchField.ETH_TYPE));
        if (version == OFVersion.OF_10) {
            assertEquals(loxi.getActions(), flow.getActions());
        } else {
            assertEquals(loxi.getInstructions(), flow.getInstructions());
            assertEquals(loxi.getTableId(), flow.getTableId());
            assertEquals(loxi.getOutGroup(), flow.getOutGroup());
            assertEquals(loxi.getCookieMask(), flow.getCookieMask());
        }
        assertEquals(loxi.toString(), flow.toString());
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_12", "OF_13", "OF_14", "OF_15"})
    void itEqualsTheLoxiFlowOfTheSameFieldsAndNoOther(OFVersion version) {
        OFFlowAdd flow = ours(version);
        OFFlowAdd same = sameXid(loxi(version), flow);

        assertEquals(flow, same);
        assertEquals(same.hashCode(), flow.hashCode());
        assertTrue(flow.equalsIgnoreXid(same.createBuilder().setXid(1).build()));
        assertEquals(same.hashCodeIgnoreXid(), flow.hashCodeIgnoreXid());
        assertEquals(Hashing.murmur3_128().hashObject(same, OFFlowAdd::putTo),
                Hashing.murmur3_128().hashObject(flow, OFFlowAdd::putTo));
        assertTrue(flow.equalsIgnoreXid(ours(version)));
        assertNotEquals(flow, ours(version), "another xid");
        assertNotEquals(flow, loxi(version, BUFFER, DESTINATION, SOURCE));
        assertFalse(flow.equalsIgnoreXid(ours(version, OFBufferId.NO_BUFFER, SOURCE, DESTINATION)));
        assertFalse(flow.equalsIgnoreXid(loxi(version, BUFFER, DESTINATION, SOURCE)));
        OFVersion other = version == OFVersion.OF_13 ? OFVersion.OF_14 : OFVersion.OF_13;
        assertFalse(flow.equalsIgnoreXid(ours(other)));
        assertFalse(flow.equals(null));
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_12", "OF_13", "OF_14", "OF_15"})
    void aBuilderFromItBuildsTheLoxiFlowOfTheSameFields(OFVersion version) {
        OFFlowAdd flow = ours(version);

        assertEquals(sameXid(loxi(version), flow), flow.createBuilder().build());
        assertEquals(sameXid(loxi(version), flow).createBuilder().setPriority(7).build(),
                flow.createBuilder().setPriority(7).build(), "and it changes like Loxi's");
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_12", "OF_13", "OF_14", "OF_15"})
    void loxisReaderReadsTheFlowItWouldHaveWritten(OFVersion version) throws OFParseError {
        OFFlowAdd flow = ours(version);

        OFMessage read = OFFactories.getGenericReader().readFrom(Unpooled.wrappedBuffer(wire(flow)));

        assertEquals(sameXid(loxi(version), flow), read);
    }

    @Test
    void aFieldTheSampleDoesNotMatchExactlyIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FlowAddTemplate.of(
                f -> learned(f, BUFFER, OFPort.of(1), 0, 0, OFPort.of(2)), MatchField.IN_PORT, MatchField.VLAN_VID));

        assertEquals("the sample flow's match has no exact vlan_vid to vary on OF_10", e.getMessage());
    }

    @Test
    void aFieldOfAnotherTypeIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FlowAddTemplate.of(
                f -> f.buildFlowAdd().setMatch(f.buildMatch().setExact(MatchField.ETH_TYPE, EthType.IPv4).build())
                        .build(), MatchField.ETH_TYPE));

        assertEquals("a template varies ports, MAC and IPv4 addresses; eth_type holds EthType", e.getMessage());
    }

    @Test
    void aSampleThatDoesNotBuildForAVersionIsRefusedWithIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FlowAddTemplate.of(
                f -> f.buildFlowAdd().setImportance(1).build()));   // 1.4+

        assertTrue(e.getMessage().startsWith("the sample flow does not build for OpenFlow OF_10: "), e.getMessage());
    }

    @Test
    void openFlow11IsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LEARNED.newFlow(OFFactories.getFactory(OFVersion.OF_11)));

        assertEquals("a flow-add template has no OpenFlow OF_11 (Loxi builds no 1.1 match)", e.getMessage());
    }

    @Test
    void twoOutputsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FlowAddTemplate.of(
                f -> {
                    List<OFAction> actions = List.of(f.actions().output(OFPort.of(1), 0),
                            f.actions().output(OFPort.of(2), 0));
                    OFFlowAdd.Builder flow = f.buildFlowAdd();
                    return f.getVersion() == OFVersion.OF_10 ? flow.setActions(actions).build()
                            : flow.setInstructions(List.of(f.instructions().applyActions(actions))).build();
                }));

        assertEquals("the sample flow has 2 output actions on OF_10; a template sets the port of one", e.getMessage());
    }

    @Test
    void settingWhatTheTemplateDoesNotVaryIsRefusedByName() {
        FlowAddTemplate drops = FlowAddTemplate.of(f -> f.buildFlowAdd()
                .setMatch(f.buildMatch().setExact(MatchField.ETH_SRC, MacAddress.NONE).build()).build(),
                MatchField.ETH_SRC);
        FlowAddTemplate.Flow flow = drops.newFlow(OFFactories.getFactory(OFVersion.OF_13));

        IllegalArgumentException field = assertThrows(IllegalArgumentException.class,
                () -> flow.set(MatchField.ETH_DST, DESTINATION));
        IllegalStateException port = assertThrows(IllegalStateException.class, () -> flow.outPort(OFPort.of(1)));

        assertEquals("eth_dst is not one of the template's varying fields [eth_src]", field.getMessage());
        assertEquals("the template's sample has no output action whose port to set", port.getMessage());
    }
}
