package io.heliograph.bench;

import java.nio.ByteBuffer;

/**
 * What an emulated switch says besides packet-ins: its HELLO and its answers to the controller's
 * handshake and housekeeping (features, port descriptions, description, configuration, echo,
 * barrier, role, async configuration, statistics). Each method writes one message at the buffer's
 * position; none is longer than {@link #MAX_LENGTH}. Encoded by hand and checked against Loxi in
 * the tests.
 */
final class SwitchMessages {

    /** The longest message written here (the description reply on 1.3). */
    static final int MAX_LENGTH = 1072;
    /** Ports every emulated switch of cbench's mode has, numbered from 1. */
    static final int PORTS = 4;
    /** The most ports a switch may have: a port's MAC address carries its number in one byte. */
    static final int MAX_PORTS = 255;
    /** Buffers the switch claims; packet-in buffer ids cycle through them. */
    static final int BUFFERS = 256;

    static final int STATS_DESC = 0;
    static final int STATS_FLOW = 1;
    static final int STATS_AGGREGATE = 2;
    static final int STATS_TABLE = 3;
    static final int STATS_PORT = 4;
    static final int STATS_QUEUE = 5;
    static final int STATS_GROUP = 6;
    static final int STATS_GROUP_DESC = 7;
    static final int STATS_METER = 9;
    static final int STATS_METER_CONFIG = 10;
    static final int STATS_TABLE_FEATURES = 12;
    static final int STATS_PORT_DESC = 13;

    static final int ERROR_BAD_REQUEST = 1;
    static final int BAD_REQUEST_TYPE = 1;
    static final int BAD_REQUEST_STAT = 2;
    static final int BAD_REQUEST_VENDOR = 3;

    private static final int DESC_BODY = 256 + 256 + 256 + 32 + 256;
    private static final int PORT_10 = 48;
    private static final int PORT_13 = 64;
    private static final int PORT_STATS_10 = 104;
    private static final int PORT_STATS_13 = 112;
    /** 10 Gb/s full duplex, copper: the same feature bits in 1.0 and 1.3 for the speed, not the medium. */
    private static final int FEATURES_10G_FD = 1 << 6;

    private SwitchMessages() {
    }

    /** HELLO: 1.0 is the bare header; 1.3 adds a version bitmap offering 1.3 only. */
    static void hello(ByteBuffer out, OpenFlowVersion v, int xid) {
        if (v == OpenFlowVersion.OF_10) {
            Header.put(out, v, OpenFlowVersion.HELLO, 8, xid);
            return;
        }
        Header.put(out, v, OpenFlowVersion.HELLO, 16, xid);
        out.putShort((short) 1).putShort((short) 8).putInt(1 << v.wire());
    }

    static void featuresReply(ByteBuffer out, OpenFlowVersion v, int xid, long dpid) {
        featuresReply(out, v, xid, dpid, PORTS);
    }

    /** The features of a switch with ports 1 to {@code ports} (listed in it on 1.0 only). */
    static void featuresReply(ByteBuffer out, OpenFlowVersion v, int xid, long dpid, int ports) {
        boolean v10 = v == OpenFlowVersion.OF_10;
        int length = v10 ? 32 + ports * PORT_10 : 32;
        Header.put(out, v, OpenFlowVersion.FEATURES_REPLY, length, xid);
        out.putLong(dpid).putInt(BUFFERS).put((byte) 1);
        if (v10) {
            Header.zeros(out, 3);
            out.putInt(0x7);            // flow, table and port statistics
            out.putInt(0x1);            // actions: output
            for (int port = 1; port <= ports; port++) {
                port10(out, dpid, port);
            }
        } else {
            out.put((byte) 0);          // auxiliary id: the main connection
            Header.zeros(out, 2);
            out.putInt(0x7);
            out.putInt(0);
        }
    }

    /** The 1.3 PORT_DESC multipart reply: every port, in one part. */
    static void portDescReply(ByteBuffer out, OpenFlowVersion v, int xid, long dpid) {
        portDescReply(out, v, xid, dpid, PORTS);
    }

    /** The 1.3 PORT_DESC multipart reply of a switch with ports 1 to {@code ports}. */
    static void portDescReply(ByteBuffer out, OpenFlowVersion v, int xid, long dpid, int ports) {
        statsHeader(out, v, xid, STATS_PORT_DESC, ports * PORT_13);
        for (int port = 1; port <= ports; port++) {
            port13(out, dpid, port);
        }
    }

    /** Bytes of a port statistics reply with an entry for each of {@code ports} ports. */
    static int portStatsLength(OpenFlowVersion v, int ports) {
        return v == OpenFlowVersion.OF_10 ? 12 + ports * PORT_STATS_10 : 16 + ports * PORT_STATS_13;
    }

    /** Port statistics for ports 1 to {@code ports}, every counter zero: a switch nothing crossed yet. */
    static void portStatsReply(ByteBuffer out, OpenFlowVersion v, int xid, int ports) {
        boolean v10 = v == OpenFlowVersion.OF_10;
        statsHeader(out, v, xid, STATS_PORT, ports * (v10 ? PORT_STATS_10 : PORT_STATS_13));
        for (int port = 1; port <= ports; port++) {
            if (v10) {
                out.putShort((short) port);
                Header.zeros(out, 6 + 12 * 8);
            } else {
                out.putInt(port);
                Header.zeros(out, 4 + 12 * 8 + 8);          // pad, counters, duration
            }
        }
    }

    static void descReply(ByteBuffer out, OpenFlowVersion v, int xid, long dpid) {
        statsHeader(out, v, xid, STATS_DESC, DESC_BODY);
        Header.putString(out, "Heliograph", 256);
        Header.putString(out, "heliograph bench emulated switch", 256);
        Header.putString(out, "cbench-compatible load generator", 256);
        Header.putString(out, Long.toString(dpid), 32);
        Header.putString(out, "emulated switch " + dpid, 256);
    }

    /** A statistics reply with no entries (flows, tables, ports, queues, groups, meters...). */
    static void emptyStatsReply(ByteBuffer out, OpenFlowVersion v, int xid, int statsType) {
        statsHeader(out, v, xid, statsType, 0);
    }

    /** An aggregate flow statistics reply: no packets, no bytes, no flows. */
    static void aggregateReply(ByteBuffer out, OpenFlowVersion v, int xid) {
        statsHeader(out, v, xid, STATS_AGGREGATE, 24);
        Header.zeros(out, 24);
    }

    static void configReply(ByteBuffer out, OpenFlowVersion v, int xid, int flags, int missSendLen) {
        Header.put(out, v, OpenFlowVersion.GET_CONFIG_REPLY, 12, xid);
        out.putShort((short) flags).putShort((short) missSendLen);
    }

    /** Copies the request's body, as the spec asks of an echo. */
    static void echoReply(ByteBuffer out, OpenFlowVersion v, ByteBuffer request, int at, int length) {
        Header.put(out, v, OpenFlowVersion.ECHO_REPLY, length, Header.xid(request, at));
        out.put(out.position(), request, at + Header.LENGTH, length - Header.LENGTH);
        out.position(out.position() + length - Header.LENGTH);
    }

    static void barrierReply(ByteBuffer out, OpenFlowVersion v, int xid) {
        Header.put(out, v, v.barrierReply, 8, xid);
    }

    /** A ROLE_REPLY granting what was asked: the request's role and generation id. */
    static void roleReply(ByteBuffer out, OpenFlowVersion v, ByteBuffer request, int at) {
        Header.put(out, v, v.roleRequest + 1, 24, Header.xid(request, at));
        out.putInt(request.getInt(at + 8)).putInt(0).putLong(request.getLong(at + 16));
    }

    /** GET_ASYNC_REPLY with 1.3's defaults: as master, table misses and actions, every port and flow-removed reason. */
    static void asyncReply(ByteBuffer out, OpenFlowVersion v, int xid) {
        Header.put(out, v, v.asyncRequest + 1, 32, xid);
        out.putInt(0x3).putInt(0).putInt(0x7).putInt(0x7).putInt(0xf).putInt(0);
    }

    /** An error about the message at {@code at}, quoting its first 64 bytes as the spec asks. */
    static void error(ByteBuffer out, OpenFlowVersion v, int type, int code, ByteBuffer offending, int at, int length) {
        int quoted = Math.min(length, 64);
        Header.put(out, v, OpenFlowVersion.ERROR, 12 + quoted, Header.xid(offending, at));
        out.putShort((short) type).putShort((short) code);
        out.put(out.position(), offending, at, quoted);
        out.position(out.position() + quoted);
    }

    private static void statsHeader(ByteBuffer out, OpenFlowVersion v, int xid, int statsType, int bodyLength) {
        boolean v10 = v == OpenFlowVersion.OF_10;
        int header = v10 ? 12 : 16;
        Header.put(out, v, v.statsReply, header + bodyLength, xid);
        out.putShort((short) statsType).putShort((short) 0);
        if (!v10) {
            out.putInt(0);
        }
    }

    private static void port10(ByteBuffer out, long dpid, int port) {
        out.putShort((short) port);
        portAddress(out, dpid, port);
        Header.putString(out, "bench" + port, 16);
        out.putInt(0).putInt(0);                               // config, state: up
        out.putInt(FEATURES_10G_FD).putInt(FEATURES_10G_FD).putInt(FEATURES_10G_FD).putInt(0);
    }

    private static void port13(ByteBuffer out, long dpid, int port) {
        out.putInt(port).putInt(0);
        portAddress(out, dpid, port);
        out.putShort((short) 0);
        Header.putString(out, "bench" + port, 16);
        out.putInt(0).putInt(0);
        out.putInt(FEATURES_10G_FD).putInt(FEATURES_10G_FD).putInt(FEATURES_10G_FD).putInt(0);
        out.putInt(10_000_000).putInt(10_000_000);             // kb/s
    }

    /** 02:dd:dd:dd:dd:pp - locally administered, the low 32 bits of the datapath id, the port. */
    private static void portAddress(ByteBuffer out, long dpid, int port) {
        out.put((byte) 0x02).putInt((int) dpid).put((byte) port);
    }
}
