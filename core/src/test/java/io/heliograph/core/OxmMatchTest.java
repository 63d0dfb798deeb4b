package io.heliograph.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;

import com.google.common.hash.Hashing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

class OxmMatchTest {

    /** High bits set everywhere they can be, so a sign extension or a short shift shows. */
    private static final long SOURCE = 0xfe_dc_ba_98_76_54L;
    private static final long DESTINATION = 0x80_00_00_00_00_01L;
    private static final OFPort PORT = OFPort.of(0xffff_ff00);

    private static Match loxi(OFVersion version, OFPort inPort, long source, long destination) {
        return OFFactories.getFactory(version).buildMatch()
                .setExact(MatchField.IN_PORT, inPort)
                .setExact(MatchField.ETH_SRC, MacAddress.of(source))
                .setExact(MatchField.ETH_DST, MacAddress.of(destination))
                .build();
    }

    private static byte[] wire(Match match) {
        ByteBuf out = Unpooled.buffer();
        match.writeTo(out);
        return ByteBufUtil.getBytes(out);
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_12", "OF_13", "OF_14", "OF_15"})
    void itsBytesAreTheOnesLoxiWritesForTheSameMatch(OFVersion version) {
        byte[] ours = wire(OxmMatch.ofEthernetPair(version, PORT, SOURCE, DESTINATION));

        assertArrayEquals(wire(loxi(version, PORT, SOURCE, DESTINATION)), ours);
        assertEquals(32, ours.length, "header, in_port, eth_dst, eth_src: a multiple of 8, no padding");
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_12", "OF_13", "OF_14", "OF_15"})
    void itAnswersLikeTheLoxiMatch(OFVersion version) {
        Match match = OxmMatch.ofEthernetPair(version, PORT, SOURCE, DESTINATION);

        assertEquals(version, match.getVersion());
        assertEquals(PORT, match.get(MatchField.IN_PORT));
        assertEquals(MacAddress.of(SOURCE), match.get(MatchField.ETH_SRC));
        assertEquals(MacAddress.of(DESTINATION), match.get(MatchField.ETH_DST));
        assertTrue(match.isExact(MatchField.ETH_SRC));
        assertTrue(match.isFullyWildcarded(MatchField.IPV4_SRC));
        assertNull(match.get(MatchField.ETH_TYPE));
        assertEquals(loxi(version, PORT, SOURCE, DESTINATION).toString(), match.toString());
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_12", "OF_13", "OF_14", "OF_15"})
    void itEqualsTheLoxiMatchOfTheSameFieldsAndNoOther(OFVersion version) {
        Match ours = OxmMatch.ofEthernetPair(version, PORT, SOURCE, DESTINATION);
        Match same = loxi(version, PORT, SOURCE, DESTINATION);

        assertEquals(ours, same);
        assertEquals(same.hashCode(), ours.hashCode());
        assertEquals(Hashing.murmur3_128().hashObject(same, Match::putTo),
                Hashing.murmur3_128().hashObject(ours, Match::putTo));
        assertEquals(ours, OxmMatch.ofEthernetPair(version, PORT, SOURCE, DESTINATION));
        assertNotEquals(ours, loxi(version, PORT, DESTINATION, SOURCE));
        assertNotEquals(ours, OxmMatch.ofEthernetPair(version, OFPort.of(1), SOURCE, DESTINATION));
        OFVersion other = version == OFVersion.OF_13 ? OFVersion.OF_14 : OFVersion.OF_13;
        assertNotEquals(ours, OxmMatch.ofEthernetPair(other, PORT, SOURCE, DESTINATION));
        assertFalse(ours.equals(null));
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_12", "OF_13", "OF_14", "OF_15"})
    void aBuilderFromItBuildsTheLoxiMatchOfTheSameFields(OFVersion version) {
        Match built = OxmMatch.ofEthernetPair(version, PORT, SOURCE, DESTINATION).createBuilder().build();

        assertEquals(loxi(version, PORT, SOURCE, DESTINATION), built);
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_11"})
    void versionsWithoutOxmAreRefused(OFVersion version) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OxmMatch.ofEthernetPair(version, PORT, SOURCE, DESTINATION));
        assertEquals("OpenFlow " + version + " has no OXM match", e.getMessage());
    }
}
