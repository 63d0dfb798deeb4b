package io.heliograph.forwarding.internal;

import static io.heliograph.forwarding.internal.Messages.as;
import static io.heliograph.forwarding.internal.Messages.inPort;
import static io.heliograph.forwarding.internal.Messages.outputs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.MessageListener.Command;

/** ARP on the line s1 -(2:1)- s2 -(2:2)- s3: h1 at s1/1, h2 at s3/1. */
class ArpForwardingTest {

    static final long H1 = 0x0200_0000_0001L;
    static final long H2 = 0x0200_0000_0002L;

    private Fabric fabric(OFVersion version) {
        Fabric f = new Fabric();
        f.addSwitch(1, version, 3);
        f.addSwitch(2, version, 3);
        f.addSwitch(3, version, 3);
        f.cable(1, 2, 2, 1);
        f.cable(2, 2, 3, 2);
        f.host(H1, "10.0.0.1", 1, 1);
        f.host(H2, "10.0.0.2", 3, 1);
        return f;
    }

    private static ReactiveForwarding forwarding(Fabric f) {
        return new ReactiveForwarding(() -> f, () -> f, () -> f, () -> f, ForwardingSettings.DEFAULTS);
    }

    @ParameterizedTest
    @EnumSource(value = OFVersion.class, names = {"OF_10", "OF_13", "OF_15"})
    void aRequestForAKnownAddressGoesToItsOwnerAlone(OFVersion version) {
        Fabric f = fabric(version);
        byte[] request = Packets.arpRequest(H1, "10.0.0.1", "10.0.0.2");

        assertEquals(Command.STOP, forwarding(f).receive(f.sw(1), Packets.packetIn(version, 1, request)));

        assertEquals(1, f.journal.size(), f.journal.toString());
        assertEquals(DatapathId.of(3), f.journal.get(0).dpid(), "sent from the owner's own switch");
        OFPacketOut out = as(OFPacketOut.class, f.journal.get(0).message());
        assertEquals(List.of(OFPort.of(1)), outputs(out));
        assertEquals(OFPort.CONTROLLER, inPort(out));
        assertArrayEquals(request, out.getData());
    }

    @Test
    void anUnknownAddressIsFloodedOnTheTree() {
        Fabric f = fabric(OFVersion.OF_13);

        forwarding(f).receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1,
                Packets.arpRequest(H1, "10.0.0.1", "10.0.0.99")));

        assertEquals(1, f.journal.size());
        assertEquals(DatapathId.of(1), f.journal.get(0).dpid());
        assertEquals(List.of(OFPort.of(2), OFPort.of(3)), outputs(as(OFPacketOut.class, f.journal.get(0).message())));
    }

    @Test
    void gratuitousArpIsAnnouncedToEveryone() {
        Fabric f = fabric(OFVersion.OF_13);

        forwarding(f).receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1,
                Packets.arpRequest(H1, "10.0.0.1", "10.0.0.1")));

        assertEquals(1, f.journal.size());
        assertEquals(List.of(OFPort.of(2), OFPort.of(3)), outputs(as(OFPacketOut.class, f.journal.get(0).message())));
    }

    @Test
    void anOwnerOnTheRequestersSegmentHeardItAlready() {
        Fabric f = fabric(OFVersion.OF_13);
        f.host(H2, "10.0.0.2", 1, 1);

        assertEquals(Command.STOP, forwarding(f).receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1,
                Packets.arpRequest(H1, "10.0.0.1", "10.0.0.2"))));
        assertTrue(f.journal.isEmpty());
    }

    @Test
    void aRequestOnlyTheSwitchBufferHoldsWholeIsFloodedFromThatBuffer() {
        Fabric f = fabric(OFVersion.OF_10);
        byte[] request = Packets.arpRequest(H1, "10.0.0.1", "10.0.0.2");
        byte[] head = java.util.Arrays.copyOf(request, 42); // the ARP is whole, the padding is not
        var packetIn = f.sw(1).getFactory().buildPacketIn().setBufferId(OFBufferId.of(5)).setTotalLen(request.length)
                .setInPort(OFPort.of(1)).setReason(org.projectfloodlight.openflow.protocol.OFPacketInReason.NO_MATCH)
                .setData(head).build();

        forwarding(f).receive(f.sw(1), packetIn);

        OFPacketOut out = as(OFPacketOut.class, f.journal.get(0).message());
        assertEquals(DatapathId.of(1), f.journal.get(0).dpid());
        assertEquals(OFBufferId.of(5), out.getBufferId());
        assertEquals(0, out.getData().length, "the buffer, not our truncated copy");
    }

    @Test
    void theReplyIsUnicastAndFollowsAPathMatchingArpOnly() {
        Fabric f = fabric(OFVersion.OF_13);
        byte[] reply = Packets.frame(H1, H2, 0x0806); // eth_type is all the TRANSPORT granularity can use

        forwarding(f).receive(f.sw(3), Packets.packetIn(OFVersion.OF_13, 1, reply));

        assertEquals(7, f.journal.size());
        Match m = as(OFFlowAdd.class, f.journal.get(5).message()).getMatch();
        assertEquals(EthType.ARP, m.get(MatchField.ETH_TYPE));
        assertNull(m.get(MatchField.IPV4_SRC));
        assertEquals(OFPort.of(1), m.get(MatchField.IN_PORT));
    }
}
