package io.heliograph.forwarding.internal;

import static io.heliograph.forwarding.internal.Messages.as;
import static io.heliograph.forwarding.internal.Messages.outputs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDelete;
import org.projectfloodlight.openflow.protocol.OFFlowDeleteStrict;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.Role;

/**
 * Forwarding in a cluster, on the line s1 -(2:1)- s2 -(2:2)- s3 (h1 at s1/1, h2 at s3/1), where
 * another instance masters s2: this instance is its SLAVE and never writes to it (the switch would
 * refuse), whatever it routes through it.
 */
class MastershipTest {

    static final long H1 = 0x0200_0000_0001L;
    static final long H2 = 0x0200_0000_0002L;

    private final Fabric f = new Fabric();
    private final ReactiveForwarding fw = new ReactiveForwarding(() -> f, () -> f, () -> f, () -> f,
            ForwardingSettings.DEFAULTS);

    MastershipTest() {
        for (long dpid = 1; dpid <= 3; dpid++) {
            f.addSwitch(dpid, OFVersion.OF_13, 3);
            f.sw(dpid).requestRole(Role.MASTER, 1);
        }
        f.cable(1, 2, 2, 1);
        f.cable(2, 2, 3, 2);
        f.host(H1, "10.0.0.1", 1, 1);
        f.host(H2, "10.0.0.2", 3, 1);
        f.sw(2).requestRole(Role.SLAVE, 1);
        f.sw(2).holdBarriers(); // a barrier a slave may send; none must be waited for
    }

    private Set<DatapathId> written() {
        return f.journal.stream().map(PortedSwitch.Write::dpid).collect(Collectors.toSet());
    }

    @Test
    void aPathThroughAnotherMastersSwitchIsInstalledOnThisInstancesSwitchesOnly() {
        byte[] syn = Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80);

        assertEquals(Command.STOP, fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, syn)));

        assertEquals(Set.of(DatapathId.of(1), DatapathId.of(3)), written(), f.journal.toString());
        assertEquals(4, f.journal.stream().filter(w -> w.message() instanceof OFFlowAdd).count(),
                "both directions on s1 and s3");
        PortedSwitch.Write last = f.journal.get(f.journal.size() - 1);
        assertEquals(DatapathId.of(1), last.dpid(), "released at once: s2's master installs its own hop");
        assertEquals(List.of(OFPort.of(2)), outputs(as(OFPacketOut.class, last.message())));
    }

    @Test
    void aLinkFailingDeletesFlowsOnThisInstancesSwitchesOnly() {
        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80)));
        f.journal.clear();

        fw.topologyChanged(f.cut(2, 2, 3, 2));

        assertEquals(Set.of(DatapathId.of(1), DatapathId.of(3)), written());
        assertTrue(f.journal.stream().allMatch(w -> w.message() instanceof OFFlowDeleteStrict), f.journal.toString());
    }

    @Test
    void anArpRequestForAHostBehindASlaveSwitchIsFloodedInstead() {
        f.sw(3).requestRole(Role.SLAVE, 1);

        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, Packets.arpRequest(H1, "10.0.0.1", "10.0.0.2")));

        assertEquals(Set.of(DatapathId.of(1)), written(), "not sent from s3, whose master will hand it on");
        assertEquals(List.of(OFPort.of(2), OFPort.of(3)), outputs(as(OFPacketOut.class, f.journal.get(0).message())));
    }

    @Test
    void aPacketInThatRacedADemotionWritesNothing() {
        f.sw(1).requestRole(Role.SLAVE, 2);

        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, Packets.arpRequest(H1, "10.0.0.1", "10.0.0.99")));
        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80)));

        assertEquals(Set.of(DatapathId.of(3)), written(), "only s3, still this instance's, gets its hops");
    }

    @Test
    void aSwitchThatConnectsAgainLosesOurEntriesAtItsFirstMastershipOnly() {
        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80)));
        assertEquals(1, fw.paths().size(), "the path h1 -> h2");
        f.journal.clear();

        // s1 connects again (its table kept the path's entries: no handshake clears them in a cluster)
        fw.switchAdded(f.sw(1));
        fw.roleChanged(f.sw(1), Role.SLAVE);
        assertEquals(List.of(), f.journal, "a slave may not write, and waits for its mastership");

        fw.roleChanged(f.sw(1), Role.MASTER);
        List<OFFlowDelete> wipes = f.journal.stream()
                .filter(w -> w.dpid().equals(DatapathId.of(1)) && w.message() instanceof OFFlowDelete)
                .map(w -> (OFFlowDelete) w.message()).toList();
        assertEquals(1, wipes.size(), f.journal.toString());
        assertEquals(U64.of(InstalledPaths.NAMESPACE), wipes.get(0).getCookie());
        assertEquals(U64.of(InstalledPaths.NAMESPACE_MASK), wipes.get(0).getCookieMask(), "our entries only");
        assertEquals(TableId.ALL, wipes.get(0).getTableId());
        assertTrue(f.journal.stream().anyMatch(w -> w.dpid().equals(DatapathId.of(3))
                && w.message() instanceof OFFlowDeleteStrict), "the path's hops elsewhere go too: " + f.journal);
        assertEquals(0, fw.paths().size(), "the path is forgotten, so its next packet is routed afresh");

        f.journal.clear();
        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80)));
        f.journal.clear();
        fw.roleChanged(f.sw(1), Role.MASTER);
        assertEquals(List.of(), f.journal, "a later mastership (fail-over, rebalancing) keeps the entries");
        assertEquals(1, fw.paths().size());
    }
}
