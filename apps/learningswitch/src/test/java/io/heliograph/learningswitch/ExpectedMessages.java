package io.heliograph.learningswitch;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;

import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

/**
 * The messages a correct learning switch sends on one OpenFlow version with given flow timers,
 * written out with Loxi's generic builders, independently of how the app builds them; and the check
 * that what it sent is exactly those, as objects and after a trip through the wire.
 */
record ExpectedMessages(OFVersion version, int idleTimeout, int hardTimeout, int priority) {

    /** "LS" in ASCII: the cookie that marks the learning switch's flows. */
    static final U64 COOKIE = U64.of(0x4c53_0000_0000_0000L);

    /** With the learning switch's default settings: idle 5 s, no hard timeout, priority 1. */
    static ExpectedMessages withDefaults(OFVersion version) {
        return new ExpectedMessages(version, 5, 0, 1);
    }

    private OFFactory f() {
        return OFFactories.getFactory(version);
    }

    /** A flow in_port, eth_src, eth_dst exact -> output {@code out}, for an unbuffered packet. */
    OFFlowAdd flow(int inPort, long src, long dst, int out) {
        return flow(inPort, src, dst, out, OFBufferId.NO_BUFFER);
    }

    /** A flow in_port, eth_src, eth_dst exact -> output {@code out}, releasing the switch's {@code buffer}. */
    OFFlowAdd flow(int inPort, long src, long dst, int out, OFBufferId buffer) {
        OFFactory f = f();
        Match match = f.buildMatch()
                .setExact(MatchField.IN_PORT, OFPort.of(inPort))
                .setExact(MatchField.ETH_SRC, MacAddress.of(src))
                .setExact(MatchField.ETH_DST, MacAddress.of(dst))
                .build();
        OFFlowAdd.Builder flow = f.buildFlowAdd()
                .setCookie(COOKIE)
                .setMatch(match)
                .setIdleTimeout(idleTimeout)
                .setHardTimeout(hardTimeout)
                .setPriority(priority)
                .setBufferId(buffer);
        List<OFAction> actions = List.of(output(OFPort.of(out)));
        return version == OFVersion.OF_10 ? flow.setActions(actions).build()
                : flow.setInstructions(List.of(f.instructions().applyActions(actions))).build();
    }

    /** The unbuffered frame from {@code src} to {@code dst} sent out of {@code out} (after its flow). */
    OFPacketOut sendAlong(int inPort, long src, long dst, int out) {
        return packetOut(inPort, OFPort.of(out), OFBufferId.NO_BUFFER, PacketIns.frame(dst, src));
    }

    /** The unbuffered frame from {@code src} to {@code dst} flooded, carrying the frame. */
    OFPacketOut flood(int inPort, long src, long dst) {
        return packetOut(inPort, OFPort.FLOOD, OFBufferId.NO_BUFFER, PacketIns.frame(dst, src));
    }

    /** A buffered packet flooded by the switch from its buffer: no frame in the packet-out. */
    OFPacketOut floodFromBuffer(int inPort, OFBufferId buffer) {
        return packetOut(inPort, OFPort.FLOOD, buffer, new byte[0]);
    }

    /** The ingress port is a field up to 1.4 and a match field from 1.5 on. */
    private OFPacketOut packetOut(int inPort, OFPort out, OFBufferId buffer, byte[] data) {
        OFFactory f = f();
        OFPacketOut.Builder packetOut = f.buildPacketOut()
                .setBufferId(buffer)
                .setActions(List.of(output(out)))
                .setData(data);
        if (version.compareTo(OFVersion.OF_15) >= 0) {
            packetOut.setMatch(f.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(inPort)).build());
        } else {
            packetOut.setInPort(OFPort.of(inPort));
        }
        return packetOut.build();
    }

    /** Output with max_len 0: the packet itself goes out, nothing of it comes back to the controller. */
    private OFAction output(OFPort port) {
        return f().actions().buildOutput().setPort(port).setMaxLen(0).build();
    }

    /** Fails, saying {@code when}, unless {@code sent} is exactly {@code expected} in order, also after encoding. */
    static void assertSentExactly(String when, List<? extends OFMessage> expected, List<OFMessage> sent) {
        if (expected.size() != sent.size()) {
            fail(when + ": expected " + expected.size() + " messages, sent " + sent.size() + "\nexpected " + expected
                    + "\n    sent " + sent);
        }
        for (int i = 0; i < expected.size(); i++) {
            OFMessage want = expected.get(i);
            OFMessage got = sent.get(i);
            // Sent message on the left: it may be a template's flow, which equals Loxi's but not the other way round.
            if (!got.equalsIgnoreXid(want)) {
                fail(when + ": message " + (i + 1) + "\nexpected " + want + "\n     got " + got);
            }
            OFMessage decoded = PacketIns.throughTheWire(got);
            if (!want.equalsIgnoreXid(decoded)) {
                fail(when + ": message " + (i + 1) + " changes on the wire\nexpected " + want + "\n decoded " + decoded);
            }
        }
    }

    @Override
    public String toString() {
        return version + ", flows idle " + idleTimeout + " s, hard " + hardTimeout + " s, priority " + priority;
    }
}
