package io.heliograph.learningswitch;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFOxmList;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFPortConfig;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortState;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.protocol.oxm.OFOxms;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.FlowAddTemplate;
import io.heliograph.core.MessageListener;
import io.heliograph.core.MetricSource;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.OversizeFrames;
import io.heliograph.core.PacketIns;
import io.heliograph.core.StateBounds;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.packet.Ethernet;

/**
 * An Ethernet learning switch for every OpenFlow version (Beacon's algorithm): learn where each
 * source address lives, install a flow (in_port, eth_src, eth_dst → output) once the destination is
 * known, flood otherwise. Flows and packet-outs are built for the switch's version from its own
 * factory; the flow, one per packet-in at line rate, through a {@link FlowAddTemplate}, which writes it
 * as bytes.
 *
 * <p>Each switch's table is only touched by that switch's I/O thread (run-to-completion), so it
 * takes no lock; the map of tables is concurrent because different switches live on different
 * threads. There is one table per connected switch, made at its first packet-in and dropped when it
 * disconnects, so the tables are as many as the switches; each is bounded (see {@link MacTable}), and
 * the bounds and what they evicted and refused are reported as {@link StateBounds}. A frame too large
 * to go back in a packet-out is dropped ({@link OversizeFrames}).
 */
public final class LearningSwitch implements MessageListener, SwitchListener, StateBounds, MetricSource {

    public static final String NAME = "learningswitch";

    /** Marks our flows, so they can be told apart in {@code ovs-ofctl dump-flows} ("LS" in ASCII). */
    static final U64 COOKIE = U64.of(0x4c53_0000_0000_0000L);

    private static final Logger LOG = LoggerFactory.getLogger(LearningSwitch.class);
    private static final Set<OFType> TYPES = Set.of(OFType.PACKET_IN);

    /** 01:80:c2:00:00:00 - 0f: IEEE 802.1D link-local groups (STP, LACP, LLDP...) that bridges never forward. */
    private static final long LINK_LOCAL_GROUP = 0x0180_c200_0000L;

    private final ConcurrentHashMap<DatapathId, SwitchTable> tables = new ConcurrentHashMap<>();
    private final LongSupplier nanoClock;
    private final OversizeFrames oversize;
    /** What the tables of disconnected switches had counted, so the figures run from the start. */
    private final AtomicLong[] gone = {new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong()};
    private volatile IntSupplier connectedSwitches = () -> 0;
    private volatile LearningSwitchSettings settings;
    private volatile FlowAddTemplate learnedFlows;

    public LearningSwitch(LearningSwitchSettings settings) {
        this(settings, System::nanoTime, new OversizeFrames(NAME));
    }

    /** @param nanoClock a monotonic clock for the tables' idle times ({@code System::nanoTime}) */
    LearningSwitch(LearningSwitchSettings settings, LongSupplier nanoClock, OversizeFrames oversize) {
        this.settings = settings;
        this.learnedFlows = learnedFlows(settings);
        this.nanoClock = nanoClock;
        this.oversize = oversize;
    }

    /** Applies new settings to the next packets. New table bounds start every switch's table afresh. */
    void configure(LearningSwitchSettings next) {
        LearningSwitchSettings previous = settings;
        learnedFlows = learnedFlows(next);
        settings = next;
        if (!previous.sameTables(next)) {
            forgetAll();
        }
    }

    /** How many switches are connected now: the bound of the number of tables, as reported. */
    void countSwitchesWith(IntSupplier connected) {
        connectedSwitches = connected;
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
            if (oversize.fits(sw, packetIn, 1)) {
                sw.write(packetOut(sw.getFactory(), packetIn, inPort, OFPort.FLOOD));
            }
        } else if (out != inPort.getPortNumber()) {
            forward(sw, packetIn, inPort, source, destination, OFPort.of(out));
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

    /**
     * Installs the flow; the switch applies it to the buffered packet, or we send the packet along (a
     * frame too large for that is dropped: the flow still takes the flow's next packets).
     */
    private void forward(OFSwitch sw, OFPacketIn packetIn, OFPort inPort, long source, long destination,
            OFPort out) {
        OFFactory factory = sw.getFactory();
        OFFlowAdd flow = learnedFlows.newFlow(factory)
                .set(MatchField.IN_PORT, inPort.getPortNumber())
                .set(MatchField.ETH_SRC, source)
                .set(MatchField.ETH_DST, destination)
                .outPort(out)
                .bufferId(packetIn.getBufferId())
                .build();
        if (OFBufferId.NO_BUFFER.equals(packetIn.getBufferId()) && oversize.fits(sw, packetIn, 1)) {
            sw.write(List.of(flow, packetOut(factory, packetIn, inPort, out)));
        } else {
            sw.write(flow);
        }
    }

    /** The flow learned for a packet: in_port, eth_src and eth_dst exact (the rest wildcarded) → output. */
    private static FlowAddTemplate learnedFlows(LearningSwitchSettings settings) {
        return FlowAddTemplate.of(factory -> {
            OFFlowAdd.Builder flow = factory.buildFlowAdd()
                    .setCookie(COOKIE)
                    .setIdleTimeout(settings.idleTimeout())
                    .setHardTimeout(settings.hardTimeout())
                    .setPriority(settings.priority())
                    .setMatch(factory.buildMatch()
                            .setExact(MatchField.IN_PORT, OFPort.of(1))
                            .setExact(MatchField.ETH_SRC, MacAddress.NONE)
                            .setExact(MatchField.ETH_DST, MacAddress.NONE)
                            .build());
            List<OFAction> output = List.of(factory.actions().output(OFPort.of(1), 0));
            if (factory.getVersion() == OFVersion.OF_10) {
                return flow.setActions(output).build();
            }
            return flow.setInstructions(List.of(factory.instructions().applyActions(output))).build();
        }, MatchField.IN_PORT, MatchField.ETH_SRC, MatchField.ETH_DST);
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
            entry = new SwitchTable(sw, current.newTable(nanoClock));
            SwitchTable previous = tables.put(sw.getId(), entry);
            if (previous != null) {
                keepCounts(previous.table);
            }
        }
        return entry.table;
    }

    @Override
    public void switchRemoved(OFSwitch sw) {
        SwitchTable entry = tables.get(sw.getId());
        if (entry != null && entry.connection == sw && tables.remove(sw.getId(), entry)) {
            keepCounts(entry.table);
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

    /** Forgets every switch's table (the app is stopping, or the tables' bounds changed). */
    void forgetAll() {
        for (DatapathId dpid : List.copyOf(tables.keySet())) {
            SwitchTable entry = tables.remove(dpid);
            if (entry != null) {
                keepCounts(entry.table);
            }
        }
    }

    private void keepCounts(MacTable table) {
        gone[0].addAndGet(table.evictedForTable());
        gone[1].addAndGet(table.refusedForTable());
        gone[2].addAndGet(table.evictedForPort());
        gone[3].addAndGet(table.refusedForPort());
    }

    /**
     * The tables' bounds: the fullest switch's table and port now, and what every table evicted and
     * refused since the start. Read from the tables racily (they belong to the I/O threads): a figure
     * may lag a moment behind.
     */
    @Override
    public List<Bound> bounds() {
        LearningSwitchSettings current = settings;
        long fullestTable = 0;
        long fullestPort = 0;
        long[] counts = {gone[0].get(), gone[1].get(), gone[2].get(), gone[3].get()};
        for (SwitchTable entry : tables.values()) {
            MacTable table = entry.table;
            fullestTable = Math.max(fullestTable, table.size());
            fullestPort = Math.max(fullestPort, table.fullestPort());
            counts[0] += table.evictedForTable();
            counts[1] += table.refusedForTable();
            counts[2] += table.evictedForPort();
            counts[3] += table.refusedForPort();
        }
        String pid = LearningSwitchComponent.PID + "/";
        List<Bound> bounds = new ArrayList<>(3);
        bounds.add(new Bound(NAME + ".hosts", pid + "maxHosts", current.maxHosts(), fullestTable, counts[0],
                counts[1], "MAC addresses per switch; at the bound a new one takes the place of one idle for "
                + "hostIdleMs, or is refused and flooded"));
        bounds.add(new Bound(NAME + ".hostsPerPort", pid + "maxHostsPerPort", current.maxHostsPerPort(),
                fullestPort, counts[2], counts[3], "MAC addresses per port of a switch; the same rule at this bound"));
        bounds.add(new Bound(NAME + ".tables", "", connectedSwitches.getAsInt(), tables.size(), 0, 0,
                "one MAC table per connected switch, dropped when it disconnects: bounded by the switches connected"));
        return bounds;
    }

    @Override
    public List<Sample> samples() {
        return List.of(new Sample("heliograph_learningswitch_oversize_frames_total", Type.COUNTER,
                "Frames from unbuffered packet-ins too large to go back in a packet-out (over 65,535 bytes), dropped",
                null, oversize.dropped()));
    }

    /** The number of hosts known on a switch, for tests and diagnostics. */
    int hostCount(DatapathId id) {
        SwitchTable entry = tables.get(id);
        return entry == null ? 0 : entry.table.size();
    }

    private record SwitchTable(OFSwitch connection, MacTable table) {
    }
}
