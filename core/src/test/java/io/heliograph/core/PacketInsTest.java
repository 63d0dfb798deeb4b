package io.heliograph.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFMetadata;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

class PacketInsTest {

    private static OFPacketIn.Builder packetIn(OFFactory f) {
        return f.buildPacketIn().setBufferId(OFBufferId.NO_BUFFER).setReason(OFPacketInReason.NO_MATCH)
                .setData(new byte[] {1, 2, 3});
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_11"})
    void upTo11TheIngressPortIsAField(OFVersion version) {
        assertEquals(OFPort.of(7), PacketIns.inPort(packetIn(OFFactories.getFactory(version)).setInPort(OFPort.of(7))
                .build()));
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_12", "OF_13", "OF_14", "OF_15"})
    void from12OnItIsAMatchField(OFVersion version) {
        OFFactory f = OFFactories.getFactory(version);

        assertEquals(OFPort.of(7), PacketIns.inPort(packetIn(f)
                .setMatch(f.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(7)).build()).build()));
        assertNull(PacketIns.inPort(packetIn(f)
                .setMatch(f.buildMatch().setExact(MatchField.METADATA, OFMetadata.of(U64.of(1))).build()).build()),
                "a switch that left it out");
    }
}
