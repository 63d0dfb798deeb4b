package io.heliograph.learningswitch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

import com.google.common.hash.Hashing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

class LearnedFlowTest {

    /** High bits set everywhere they can be, so a sign extension or a short shift shows. */
    private static final long SOURCE = 0xfe_dc_ba_98_76_54L;
    private static final long DESTINATION = 0x80_00_00_00_00_01L;
    private static final long XID = 0xfedc_ba98L;
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

    private static LearnedFlow ours(OFVersion version, OFBufferId buffer, long source, long destination) {
        return LearnedFlow.of(version, XID, COOKIE, IDLE, HARD, PRIORITY, buffer, in(version), source, destination,
                out(version));
    }

    private static OFFlowAdd ours(OFVersion version) {
        return ours(version, BUFFER, SOURCE, DESTINATION);
    }

    /** The same flow built the ordinary way, with Loxi's builders. */
    private static OFFlowAdd loxi(OFVersion version, OFBufferId buffer, long source, long destination) {
        OFFactory f = OFFactories.getFactory(version);
        List<OFAction> actions = List.of(f.actions().output(out(version), 0));
        OFFlowAdd.Builder b = f.buildFlowAdd()
                .setXid(XID)
                .setCookie(COOKIE)
                .setIdleTimeout(IDLE)
                .setHardTimeout(HARD)
                .setPriority(PRIORITY)
                .setBufferId(buffer)
                .setMatch(f.buildMatch()
                        .setExact(MatchField.IN_PORT, in(version))
                        .setExact(MatchField.ETH_SRC, MacAddress.of(source))
                        .setExact(MatchField.ETH_DST, MacAddress.of(destination))
                        .build());
        if (version == OFVersion.OF_10) {
            b.setActions(actions);
        } else {
            b.setInstructions(List.of(f.instructions().applyActions(actions)));
        }
        return b.build();
    }

    private static OFFlowAdd loxi(OFVersion version) {
        return loxi(version, BUFFER, SOURCE, DESTINATION);
    }

    private static byte[] wire(OFMessage message) {
        ByteBuf out = Unpooled.buffer();
        message.writeTo(out);
        return ByteBufUtil.getBytes(out);
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_12", "OF_13", "OF_14", "OF_15"})
    void itsBytesAreTheOnesLoxiWritesForTheSameFlow(OFVersion version) {
        assertArrayEquals(wire(loxi(version)), wire(ours(version)));
        assertArrayEquals(wire(loxi(version, OFBufferId.NO_BUFFER, DESTINATION, SOURCE)),
                wire(ours(version, OFBufferId.NO_BUFFER, DESTINATION, SOURCE)), "no buffer, addresses swapped");
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_12", "OF_13", "OF_14", "OF_15"})
    void itAnswersLikeTheLoxiFlow(OFVersion version) {
        OFFlowAdd flow = ours(version);
        OFFlowAdd loxi = loxi(version);

        assertEquals(version, flow.getVersion());
        assertEquals(loxi.getType(), flow.getType());
        assertEquals(XID, flow.getXid());
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
        assertEquals(loxi.getActions(), flow.getActions());
        if (version != OFVersion.OF_10) {
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
        OFFlowAdd same = loxi(version);

        assertEquals(flow, same);
        assertEquals(same.hashCode(), flow.hashCode());
        assertTrue(flow.equalsIgnoreXid(same.createBuilder().setXid(1).build()));
        assertEquals(same.hashCodeIgnoreXid(), flow.hashCodeIgnoreXid());
        assertEquals(Hashing.murmur3_128().hashObject(same, OFFlowAdd::putTo),
                Hashing.murmur3_128().hashObject(flow, OFFlowAdd::putTo));
        assertEquals(flow, ours(version));
        assertTrue(ours(version, OFBufferId.NO_BUFFER, SOURCE, DESTINATION)
                .equalsIgnoreXid(ours(version, OFBufferId.NO_BUFFER, SOURCE, DESTINATION)));
        assertNotEquals(flow, loxi(version, BUFFER, DESTINATION, SOURCE));
        assertNotEquals(flow, ours(version, OFBufferId.NO_BUFFER, SOURCE, DESTINATION));
        assertNotEquals(flow, same.createBuilder().setXid(XID + 1).build());
        assertFalse(flow.equalsIgnoreXid(loxi(version, BUFFER, DESTINATION, SOURCE)));
        OFVersion other = version == OFVersion.OF_13 ? OFVersion.OF_14 : OFVersion.OF_13;
        assertNotEquals(flow, ours(other));
        assertFalse(flow.equals(null));
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_12", "OF_13", "OF_14", "OF_15"})
    void aBuilderFromItBuildsTheLoxiFlowOfTheSameFields(OFVersion version) {
        OFFlowAdd built = ours(version).createBuilder().build();

        assertEquals(loxi(version), built);
        assertEquals(loxi(version).createBuilder().setPriority(7).build(),
                ours(version).createBuilder().setPriority(7).build(), "and it changes like Loxi's");
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13"})
    void itSurvivesLoxisReaderWithEveryField(OFVersion version) {
        OFMessage read = PacketIns.throughTheWire(ours(version));

        assertEquals(loxi(version), read, "Loxi reads back the flow it would have written");
    }

    @Test
    void openFlow11IsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ours(OFVersion.OF_11));
        assertEquals("OpenFlow OF_11 is not written by the learning switch", e.getMessage());
    }
}
