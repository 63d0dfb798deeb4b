package io.heliograph.learningswitch;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFOxmList;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFPortConfig;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortState;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.oxm.OFOxms;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.MessageListener;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.PacketIns;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.packet.Ethernet;

/**
 * An Ethernet learning switch for every OpenFlow version (Beacon's algorithm): learn where each
 * source address lives, install a flow (in_port, eth_src, eth_dst → output) once the destination is
 * known, flood otherwise. The flow is a {@link LearnedFlow}, written as bytes for the switch's
 * version (1.0: actions in the flow-mod; 1.3+: an apply-actions instruction); packet-outs are built
 * from the switch's own factory.
 *
 * <p>Each switch's table is only touched by that switch's I/O thread (run-to-completion), so it
 * takes no lock; the map of tables is concurrent because different switches live on different
 * threads.
 */
public final class LearningSwitch implements MessageListener, SwitchListener {

    public static final String NAME = "learningswitch";

    /** Marks our flows, so they can be told apart in {@code ovs-ofctl dump-flows} ("LS" in ASCII). */
    static final U64 COOKIE = U64.of(0x4c53_0000_0000_0000L);

    private static final Logger LOG = LoggerFactory.getLogger(LearningSwitch.class);
    private static final Set<OFType> TYPES = Set.of(OFType.PACKET_IN);

    /** 01:80:c2:00:00:00 - 0f: IEEE 802.1D link-local groups (STP, LACP, LLDP...) that bridges never forward. */
    private static final long LINK_LOCAL_GROUP = 0x0180_c200_0000L;

    private final ConcurrentHashMap<DatapathId, SwitchTable> tables = new ConcurrentHashMap<>();
    private volatile LearningSwitchSettings settings;

    public LearningSwitch(LearningSwitchSettings settings) {
        this.settings = settings;
    }

    /** Applies new settings to the next packets. A new table bound starts every switch's table afresh. */
    void configure(LearningSwitchSettings next) {
        LearningSwitchSettings previous = settings;
        settings = next;
        if (previous.maxHosts() != next.maxHosts()) {
            tables.clear();
        }
    }

    LearningSwitchSettings settings() {
        return settings;
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public Set<OFType> getTypes() {
        return TYPES;
    }

    @Override
    public Command receive(OFSwitch sw, OFMessage message) {
        if (!(message instanceof OFPacketIn packetIn)) {
            return Command.CONTINUE;
        }
        OFPort inPort = PacketIns.inPort(packetIn);
        Ethernet frame = Ethernet.wrap(packetIn.getData());
        if (inPort == null || !frame.isValid()) {
            LOG.debug("Switch {}: ignoring a packet-in that is not parseable (in_port {}): {}", sw.getId(), inPort,
                    frame.problem());
            return Command.CONTINUE;
        }
        long destination = frame.destination();
        if ((destination & ~0xfL) == LINK_LOCAL_GROUP) {
            return Command.CONTINUE;
        }
        LearningSwitchSettings current = settings;
        MacTable table = tableOf(sw, current);
        long source = frame.source();
        if (!Ethernet.isMulticast(source)) {
            table.put(source, inPort.getPortNumber());
        }
        int out = Ethernet.isMulticast(destination) ? MacTable.NO_PORT : table.get(destination);
        if (out == MacTable.NO_PORT) {
            sw.write(packetOut(sw.getFactory(), packetIn, inPort, OFPort.FLOOD));
        } else if (out != inPort.getPortNumber()) {
            forward(sw, packetIn, inPort, source, destination, OFPort.of(out), current);
        }
        // else: the destination is on the segment the packet came from; it already got it.
        return Command.CONTINUE;
    }

    /**
     * Loads the slots of the packets' source addresses: with many switches of many hosts the tables
     * outgrow the CPU caches, and a read's packet-ins then wait for their slots together rather than
     * one after another. The loop is kept small so that the processor has many of these loads in
     * flight at once.
     */
    @Override
    public void prepare(OFSwitch sw, List<OFMessage> read) {
        SwitchTable entry = tables.get(sw.getId());
        if (entry == null || entry.connection != sw) {
            return;
        }
        MacTable table = entry.table;
        for (int i = 0; i < read.size(); i++) {
            if (read.get(i) instanceof OFPacketIn packetIn) {
                table.touch(Ethernet.wrap(packetIn.getData()).source());
            }
        }
    }

    /** Installs the flow; the switch applies it to the buffered packet, or we send the packet along. */
    private static void forward(OFSwitch sw, OFPacketIn packetIn, OFPort inPort, long source, long destination,
            OFPort out, LearningSwitchSettings current) {
        OFFactory factory = sw.getFactory();
        LearnedFlow flow = LearnedFlow.of(factory.getVersion(), factory.nextXid(), COOKIE, current.idleTimeout(),
                current.hardTimeout(), current.priority(), packetIn.getBufferId(), inPort, source, destination, out);
        if (OFBufferId.NO_BUFFER.equals(packetIn.getBufferId())) {
            sw.write(List.of(flow, packetOut(factory, packetIn, inPort, out)));
        } else {
            sw.write(flow);
        }
    }

    /** Sends the packet (from the switch's buffer, or in full) out of {@code out}. */
    private static OFPacketOut packetOut(OFFactory factory, OFPacketIn packetIn, OFPort inPort, OFPort out) {
        OFPacketOut.Builder packetOut = factory.buildPacketOut()
                .setBufferId(packetIn.getBufferId())
                .setActions(List.of(factory.actions().output(out, 0)));
        if (factory.getVersion().compareTo(OFVersion.OF_15) >= 0) {
            OFOxms oxms = factory.oxms();
            packetOut.setMatch(factory.buildMatchV3().setOxmList(OFOxmList.of(oxms.inPort(inPort))).build());
        } else {
            packetOut.setInPort(inPort);
        }
        if (OFBufferId.NO_BUFFER.equals(packetIn.getBufferId())) {
            packetOut.setData(packetIn.getData());
        }
        return packetOut.build();
    }

    private MacTable tableOf(OFSwitch sw, LearningSwitchSettings current) {
        SwitchTable entry = tables.get(sw.getId());
        if (entry == null || entry.connection != sw) {
            // First packet of this connection (a reconnected switch gets a new handle): start afresh,
            // so no table is ever shared by two connections' threads.
            entry = new SwitchTable(sw, new MacTable(current.maxHosts()));
            tables.put(sw.getId(), entry);
        }
        return entry.table;
    }

    @Override
    public void switchRemoved(OFSwitch sw) {
        SwitchTable entry = tables.get(sw.getId());
        if (entry != null && entry.connection == sw) {
            tables.remove(sw.getId(), entry);
        }
    }

    @Override
    public void portChanged(OFSwitch sw, OFPortDesc port, PortChange change) {
        boolean down = change == PortChange.DELETED || port.getState().contains(OFPortState.LINK_DOWN)
                || port.getConfig().contains(OFPortConfig.PORT_DOWN);
        SwitchTable entry = tables.get(sw.getId());
        if (down && entry != null && entry.connection == sw) {
            int forgotten = entry.table.removePort(port.getPortNo().getPortNumber());
            LOG.debug("Switch {}: port {} down, forgot {} hosts", sw.getId(), port.getPortNo(), forgotten);
        }
    }

    /** Forgets every switch's table (the app is stopping). */
    void forgetAll() {
        tables.clear();
    }

    /** The number of hosts known on a switch, for tests and diagnostics. */
    int hostCount(DatapathId id) {
        SwitchTable entry = tables.get(id);
        return entry == null ? 0 : entry.table.size();
    }

    private record SwitchTable(OFSwitch connection, MacTable table) {
    }
}
