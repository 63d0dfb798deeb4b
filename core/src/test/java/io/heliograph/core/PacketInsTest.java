package io.heliograph.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.action.OFAction;
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

    /**
     * The rule agrees with what Loxi encodes, at the edge of the 16-bit length: the largest frame it
     * says fits makes a message of exactly 65,535 bytes, and one byte more is refused by the encoder.
     */
    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void aPacketOutFitsExactlyWhenLoxiCanEncodeIt(OFVersion version) {
        OFFactory f = OFFactories.getFactory(version);
        for (int outputs : new int[] {1, 3, 48}) {
            int largest = largestFitting(f, outputs);
            ByteBuf encoded = Unpooled.buffer();
            packetOut(f, outputs, largest).writeTo(encoded);
            assertEquals(PacketIns.MAX_MESSAGE_LENGTH, encoded.readableBytes(), version + ", " + outputs + " outputs");
            assertThrows(RuntimeException.class, () -> packetOut(f, outputs, largest + 1).writeTo(Unpooled.buffer()),
                    "Loxi refuses one byte more");
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13"})
    void aBufferedPacketAlwaysFitsSinceOnlyItsBufferIdGoesBack(OFVersion version) {
        OFPacketIn buffered = packetIn(OFFactories.getFactory(version)).setBufferId(OFBufferId.of(7))
                .setData(new byte[65_000]).build();
        assertTrue(PacketIns.fitsPacketOut(buffered, 100));
    }

    /** The largest frame the rule lets through, by bisection. */
    private static int largestFitting(OFFactory f, int outputs) {
        int fits = 0;
        int doesNot = PacketIns.MAX_MESSAGE_LENGTH + 1;
        while (doesNot - fits > 1) {
            int middle = (fits + doesNot) >>> 1;
            if (PacketIns.fitsPacketOut(packetIn(f).setData(new byte[middle]).build(), outputs)) {
                fits = middle;
            } else {
                doesNot = middle;
            }
        }
        return fits;
    }

    private static OFPacketOut packetOut(OFFactory f, int outputs, int dataLength) {
        List<OFAction> actions = new ArrayList<>();
        for (int i = 1; i <= outputs; i++) {
            actions.add(f.actions().output(OFPort.of(i), 0));
        }
        OFPacketOut.Builder out = f.buildPacketOut().setBufferId(OFBufferId.NO_BUFFER).setActions(actions)
                .setData(new byte[dataLength]);
        if (f.getVersion() == OFVersion.OF_15) {
            out.setMatch(f.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(9)).build());
        } else {
            out.setInPort(OFPort.of(9));
        }
        return out.build();
    }
}
