package io.heliograph.bench;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.Consumer;

/**
 * One switch the generator emulates, as cbench's fake switch behaves: it says HELLO, answers the
 * controller's handshake, and once it has sent its FEATURES_REPLY (and waited {@code -D}) sends
 * packet-ins - one at a time in latency mode, as many as its output buffer holds in throughput
 * mode - and counts the responses: FLOW_MODs that add or modify, and PACKET_OUTs that are not
 * LLDP. Replies are told apart by their header alone, except for the one field that says whether
 * a FLOW_MOD adds or a PACKET_OUT carries LLDP, and in latency mode a FLOW_MOD's buffer id.
 *
 * <p>In latency mode the packet-in in flight is answered by a PACKET_OUT, or by a FLOW_MOD that
 * applies to its buffer; only that answer releases the next one, and only that answer is counted: a
 * latency-mode figure is round trips, as the reference C client's. A FLOW_MOD with no buffer (a
 * controller installing the reverse direction of a flow first, as forwarding does) answers no packet:
 * were it to release a packet-in too, two responses per packet-in would put ever more packet-ins in
 * flight, and the waits would measure the queue they build, not the controller; were it counted, a
 * controller answering with two messages would report twice its round trips.
 *
 * <p>Statistics and role requests are treated as its {@link SwitchBehaviour} says: answered, refused
 * with an error, or ignored, at once or late. A late reply is written aside and handed to the output
 * by {@link #sendLateReplies} when it is due; nothing else waits for it.
 *
 * <p>No I/O here: the event loop reads into {@link #input()}, calls {@link #process()}, and writes
 * {@link #output()} to the socket. Everything runs on that loop's thread.
 */
final class EmulatedSwitch {

    /** Where the switch is in its life. */
    enum State {
        /** HELLO sent; waiting for the controller's FEATURES_REQUEST. */
        HANDSHAKE,
        /** FEATURES_REPLY sent; waiting {@code -D} ms before the first packet-in. */
        DELAYING,
        /** Sending packet-ins and counting responses. */
        SENDING
    }

    static final int BUFFER_BYTES = 64 * 1024;
    /** Room kept free of packet-ins in throughput mode, so a handshake reply always fits. */
    private static final int REPLY_ROOM = 4 * SwitchMessages.MAX_LENGTH;

    private static final int FLOW_MOD_COMMAND_10 = 56;
    private static final int FLOW_MOD_COMMAND_13 = 25;
    /**
     * The buffer id of an unbuffered packet-in in flight (the gratuitous ARP): a FLOW_MOD with no buffer
     * answers it, as a controller that answers every packet-in with a flow (the responders) does.
     */
    private static final long UNBUFFERED = Integer.toUnsignedLong(PacketIn.NO_BUFFER);
    private static final int FLOW_MOD_MODIFY_STRICT = 2;
    private static final int ETH_TYPE_LLDP = 0x88cc;
    private static final int ETH_TYPE_VLAN = 0x8100;
    /** Nicira's vendor id and its NXT_ROLE_REQUEST subtype: the role request of OpenFlow 1.0. */
    private static final int NICIRA = 0x00002320;
    private static final int NXT_ROLE_REQUEST = 10;
    private static final int ERROR_ROLE_REQUEST_FAILED_13 = 11;
    private static final int ROLE_REQUEST_FAILED_UNSUP = 1;
    /** A latency-mode packet-in with no answer for this long counts as unanswered. */
    static final long UNANSWERED_NANOS = 1_000_000_000L;

    private final int number;
    private final long dpid;
    private final OpenFlowVersion version;
    private final boolean throughput;
    private final boolean learnDstMacs;
    private final int macs;
    private final long delayNanos;
    private final PacketIn probe;
    private final SwitchBehaviour behaviour;
    /** What the controller asked beyond the handshake, and what the switch did with it. */
    private final Requests statsRequests = new Requests();
    private final Requests roleRequests = new Requests();
    /** Replies written aside to be sent late, each queue in the order they fall due (one delay per queue). */
    private final ArrayDeque<LateReply> lateStats = new ArrayDeque<>();
    private final ArrayDeque<LateReply> lateRoles = new ArrayDeque<>();
    private ByteBuffer aside;
    /** Ports 1 to {@code ports}, in the features and port descriptions. */
    private final int ports;
    /** The fabric mode's cables, which carry LLDP packet-outs to the peer port; null in cbench's mode. */
    private final Cabling cabling;
    /** Room made in the output buffer before a reply: the longest reply this switch writes. */
    private final int replyRoom;
    private final ByteBuffer in = ByteBuffer.allocateDirect(BUFFER_BYTES);
    private ByteBuffer out = ByteBuffer.allocateDirect(BUFFER_BYTES);

    private State state = State.HANDSHAKE;
    private long sendingFrom;
    /** Between tests the switch answers the controller but sends no packet-in and counts nothing. */
    private boolean testRunning;
    private int xid = 1;
    private int macIndex;
    private int bufferId;
    private int responses;
    private int inFlight;
    private int configFlags;
    private int missSendLen = 128;
    private int errorsReceived;
    private String firstError;
    /** Latency mode: when the packet-in now in flight was sent, and the waits for answers seen so far. */
    private long waitingSince;
    /** Latency mode: the buffer id of the packet-in in flight, or {@link #UNBUFFERED}. */
    private long inFlightBuffer = UNBUFFERED;
    private long longestWaitNanos;
    private int unanswered;

    /**
     * @param number 1-based, for messages
     */
    EmulatedSwitch(int number, long dpid, BenchOptions options) {
        this(number, dpid, options, SwitchMessages.PORTS, null);
    }

    /**
     * A switch of an emulated fabric: {@code ports} ports, LLDP packet-outs handed to {@code cabling},
     * and counters for every port in port statistics replies (as a real deployment's statistics
     * poller gets them; cbench's switches report none).
     *
     * @param number 1-based, for messages
     */
    EmulatedSwitch(int number, long dpid, BenchOptions options, int ports, Cabling cabling) {
        if (ports < 1 || ports > SwitchMessages.MAX_PORTS) {
            throw new IllegalArgumentException("a switch has 1 to " + SwitchMessages.MAX_PORTS + " ports, not " + ports);
        }
        this.ports = ports;
        this.cabling = cabling;
        this.replyRoom = Math.max(SwitchMessages.MAX_LENGTH, SwitchMessages.portStatsLength(options.version(), ports));
        this.number = number;
        this.dpid = dpid;
        this.version = options.version();
        this.throughput = options.throughput();
        this.learnDstMacs = options.learnDstMacs();
        this.macs = options.macsPerSwitch();
        this.delayNanos = options.delayMs() * 1_000_000L;
        this.probe = PacketIn.probe(version, dpid);
        this.behaviour = options.behaviour();
        SwitchMessages.hello(out, version, xid++);
    }

    ByteBuffer input() {
        return in;
    }

    /** Bytes to send, from position 0 to the position; the loop compacts what the socket took. */
    ByteBuffer output() {
        return out;
    }

    State state() {
        return state;
    }

    int number() {
        return number;
    }

    long dpid() {
        return dpid;
    }

    /** True while the switch sends packet-ins of its own accord (throughput mode, in a test). */
    boolean wantsToFill() {
        return throughput && testRunning && state == State.SENDING;
    }

    /** Nanos at which a DELAYING switch starts sending. */
    long sendingFrom() {
        return sendingFrom;
    }

    int errorsReceived() {
        return errorsReceived;
    }

    String firstError() {
        return firstError;
    }

    Requests statsRequests() {
        return statsRequests;
    }

    Requests roleRequests() {
        return roleRequests;
    }

    /** Latency mode: the longest a packet-in waited for its answer (or, at a test's end, had waited so far). */
    long longestWaitNanos() {
        return longestWaitNanos;
    }

    /** Latency mode: packet-ins that waited {@link #UNANSWERED_NANOS} or more for an answer. */
    int unanswered() {
        return unanswered;
    }

    /** When the next late reply falls due (System.nanoTime); Long.MAX_VALUE when none waits. */
    long nextLateReplyNanos() {
        if (lateStats.isEmpty() || lateRoles.isEmpty()) {
            return lateStats.isEmpty() && lateRoles.isEmpty() ? Long.MAX_VALUE
                    : (lateStats.isEmpty() ? lateRoles : lateStats).peekFirst().dueNanos;
        }
        long stats = lateStats.peekFirst().dueNanos;
        long roles = lateRoles.peekFirst().dueNanos;
        return roles - stats < 0 ? roles : stats;   // nanoTime values compare by their difference
    }

    /** Late replies not sent yet. */
    int lateRepliesWaiting() {
        return lateStats.size() + lateRoles.size();
    }

    /** Moves every late reply due by {@code now} (System.nanoTime) to the output. */
    void sendLateReplies(long now) {
        for (ArrayDeque<LateReply> queue : List.of(lateStats, lateRoles)) {
            while (!queue.isEmpty() && now - queue.peekFirst().dueNanos >= 0) {
                byte[] reply = queue.pollFirst().bytes;
                reserve(reply.length);
                out.put(reply);
            }
        }
    }

    /** A test starts: counts from zero, and (latency mode) one packet-in in flight. */
    void startTest() {
        responses = 0;
        inFlight = 0;
        testRunning = true;
        if (state == State.SENDING) {
            beginSending();
        }
    }

    /** The test is over: the responses counted in it. The switch keeps answering but sends nothing. */
    int endTest() {
        testRunning = false;
        if (!throughput && state == State.SENDING && inFlight > 0) {
            waited(System.nanoTime() - waitingSince);
        }
        return responses;
    }

    /** A DELAYING switch whose delay has passed starts sending. */
    void delayOver() {
        state = State.SENDING;
        if (testRunning) {
            beginSending();
        }
    }

    private void beginSending() {
        waitingSince = System.nanoTime();
        if (learnDstMacs) {
            reserve(128);
            PacketIn.writeGratuitousArp(out, version, dpid, xid++);
            inFlightBuffer = UNBUFFERED;
            if (!throughput) {
                inFlight++;   // its answer (a flood) is the response that releases the first probe
                return;
            }
        }
        if (!throughput) {
            sendProbe();
        }
    }

    /** Throughput mode: tops the output buffer up with packet-ins. */
    void fill() {
        int len = probe.length();
        while (out.remaining() >= len + REPLY_ROOM) {
            sendProbe();
        }
    }

    private void sendProbe() {
        if (out.remaining() < probe.length()) {
            reserve(probe.length());
        }
        probe.writeTo(out, xid++, bufferId, macIndex);
        inFlightBuffer = bufferId;
        if (++bufferId == SwitchMessages.BUFFERS) {
            bufferId = 0;
        }
        if (++macIndex == macs) {
            macIndex = 0;
        }
        inFlight++;
    }

    /**
     * Handles every whole message in the input buffer (in write mode: data from 0 to its position)
     * and leaves a partial one for the next read.
     *
     * @throws ProtocolException when the stream cannot be framed or the versions do not match
     */
    void process() throws ProtocolException {
        ByteBuffer b = in;
        int limit = b.position();
        int at = 0;
        while (limit - at >= Header.LENGTH) {
            int length = Header.length(b, at);
            if (length < Header.LENGTH) {
                throw new ProtocolException("switch " + number + ": the controller sent a message of length " + length
                        + " (less than its 8-byte header); the stream cannot be read further");
            }
            if (limit - at < length) {
                break;
            }
            int type = Header.type(b, at);
            if (type == OpenFlowVersion.FLOW_MOD) {
                if (counting() && addsOrModifies(b, at, length)) {
                    response(appliesToInFlight(b, at, length));
                }
            } else if (type == OpenFlowVersion.PACKET_OUT) {
                if (counting() && !carriesLldp(b, at, length)) {
                    response(true);
                } else if (cabling != null && carriesLldp(b, at, length)) {
                    cabling.packetOut(this, b, at, length);
                }
            } else {
                control(type, b, at, length);
            }
            at += length;
        }
        b.limit(limit).position(at);
        b.compact();
    }

    private boolean counting() {
        return testRunning && state == State.SENDING;
    }

    /** A response; {@code answers}: it answers the packet-in in flight (latency mode). */
    private void response(boolean answers) {
        if (throughput) {
            responses++;
            return;
        }
        if (!answers) {
            return;
        }
        responses++;
        if (inFlight > 0) {
            inFlight--;
        }
        if (inFlight == 0) {
            long now = System.nanoTime();
            waited(now - waitingSince);
            waitingSince = now;
            sendProbe();
        }
    }

    private void waited(long nanos) {
        longestWaitNanos = Math.max(longestWaitNanos, nanos);
        if (nanos >= UNANSWERED_NANOS) {
            unanswered++;
        }
    }

    private boolean addsOrModifies(ByteBuffer b, int at, int length) {
        if (version == OpenFlowVersion.OF_10) {
            return length >= FLOW_MOD_COMMAND_10 + 2
                    && (b.getShort(at + FLOW_MOD_COMMAND_10) & 0xffff) <= FLOW_MOD_MODIFY_STRICT;
        }
        return length > FLOW_MOD_COMMAND_13 && (b.get(at + FLOW_MOD_COMMAND_13) & 0xff) <= FLOW_MOD_MODIFY_STRICT;
    }

    /** Whether a FLOW_MOD applies to the buffer of the packet-in in flight. */
    private boolean appliesToInFlight(ByteBuffer b, int at, int length) {
        int offset = version.flowModBufferId();
        return length >= offset + 4 && Integer.toUnsignedLong(b.getInt(at + offset)) == inFlightBuffer;
    }

    private boolean carriesLldp(ByteBuffer b, int at, int length) {
        int actionsLengthAt = version == OpenFlowVersion.OF_10 ? 14 : 16;
        int fixed = version == OpenFlowVersion.OF_10 ? 16 : 24;
        if (length < fixed) {
            return false;
        }
        int frame = at + fixed + (b.getShort(at + actionsLengthAt) & 0xffff);
        int end = at + length;
        if (frame + 14 > end) {
            return false;
        }
        int type = b.getShort(frame + 12) & 0xffff;
        if (type == ETH_TYPE_VLAN && frame + 18 <= end) {
            type = b.getShort(frame + 16) & 0xffff;
        }
        return type == ETH_TYPE_LLDP;
    }

    /** Everything but responses: the handshake and housekeeping. Rare, so clarity over speed. */
    private void control(int type, ByteBuffer b, int at, int length) throws ProtocolException {
        int requestXid = Header.xid(b, at);
        if (type != OpenFlowVersion.HELLO && Header.version(b, at) != version.wire()) {
            throw new ProtocolException("switch " + number + ": the controller sent a message of OpenFlow wire version "
                    + Header.version(b, at) + " (type " + type + ") but we speak " + version.label());
        }
        reserve(Math.max(replyRoom, length));   // an echo reply is as long as its request
        switch (type) {
            case OpenFlowVersion.HELLO -> checkHello(b, at, length);
            case OpenFlowVersion.ECHO_REQUEST -> SwitchMessages.echoReply(out, version, b, at, length);
            case OpenFlowVersion.FEATURES_REQUEST -> {
                SwitchMessages.featuresReply(out, version, requestXid, dpid, ports);
                if (state == State.HANDSHAKE) {
                    state = State.DELAYING;
                    sendingFrom = System.nanoTime() + delayNanos;
                }
            }
            case OpenFlowVersion.GET_CONFIG_REQUEST ->
                    SwitchMessages.configReply(out, version, requestXid, configFlags, missSendLen);
            case OpenFlowVersion.SET_CONFIG -> {
                if (length >= 12) {
                    configFlags = b.getShort(at + 8) & 0xffff;
                    missSendLen = b.getShort(at + 10) & 0xffff;
                }
            }
            case OpenFlowVersion.ERROR -> {
                errorsReceived++;
                if (firstError == null) {
                    firstError = length >= 12 ? "type " + (b.getShort(at + 8) & 0xffff) + " code "
                            + (b.getShort(at + 10) & 0xffff) : "(truncated)";
                }
            }
            case OpenFlowVersion.VENDOR -> vendor(b, at, length);
            case OpenFlowVersion.ECHO_REPLY, OpenFlowVersion.PACKET_IN, OpenFlowVersion.FEATURES_REPLY,
                    OpenFlowVersion.GET_CONFIG_REPLY -> {
                // replies and switch-to-controller messages a controller has no business sending: ignored
            }
            default -> versionSpecific(type, b, at, length, requestXid);
        }
    }

    private void versionSpecific(int type, ByteBuffer b, int at, int length, int requestXid) {
        if (type == version.statsRequest) {
            stats(b, at, length, requestXid);
        } else if (type == version.barrierRequest) {
            SwitchMessages.barrierReply(out, version, requestXid);
        } else if (type == version.roleRequest && length >= 24) {
            treat(behaviour.role(), behaviour.roleDelayMs(), roleRequests, lateRoles,
                    to -> SwitchMessages.roleReply(to, version, b, at),
                    to -> SwitchMessages.error(to, version, ERROR_ROLE_REQUEST_FAILED_13, ROLE_REQUEST_FAILED_UNSUP, b, at,
                            length));
        } else if (type == version.asyncRequest) {
            SwitchMessages.asyncReply(out, version, requestXid);
        } else if (type == version.queueConfigRequest || isRequestWithoutHandler(type)) {
            SwitchMessages.error(out, version, SwitchMessages.ERROR_BAD_REQUEST, SwitchMessages.BAD_REQUEST_TYPE, b, at,
                    length);
        }
        // Anything else is a command (port, table, group, meter mods, set-async...): accepted silently.
    }

    /** Types the switch cannot answer: requests beyond the last one either version defines. */
    private boolean isRequestWithoutHandler(int type) {
        return version == OpenFlowVersion.OF_10 ? type > 21 : type > 29;
    }

    /**
     * A VENDOR message: the 1.0 switch knows no vendor extension and says BAD_VENDOR, also to Nicira's
     * role request, whose treatment is the role behaviour's (ANSWER and ERROR send that error).
     */
    private void vendor(ByteBuffer b, int at, int length) {
        Consumer<ByteBuffer> badVendor = to -> SwitchMessages.error(to, version, SwitchMessages.ERROR_BAD_REQUEST,
                SwitchMessages.BAD_REQUEST_VENDOR, b, at, length);
        boolean roleRequest = length >= 20 && b.getInt(at + 8) == NICIRA && b.getInt(at + 12) == NXT_ROLE_REQUEST;
        if (roleRequest) {
            treat(behaviour.role(), behaviour.roleDelayMs(), roleRequests, lateRoles, badVendor, badVendor);
        } else {
            badVendor.accept(out);
        }
    }

    private void stats(ByteBuffer b, int at, int length, int requestXid) {
        int statsType = length >= 10 ? b.getShort(at + 8) & 0xffff : -1;
        if (!behaviour.appliesToStats(statsType)) {
            statsReply(out, b, at, length, requestXid, statsType);
            return;
        }
        treat(behaviour.stats(), behaviour.statsDelayMs(), statsRequests, lateStats,
                to -> statsReply(to, b, at, length, requestXid, statsType),
                to -> SwitchMessages.error(to, version, SwitchMessages.ERROR_BAD_REQUEST,
                        SwitchMessages.BAD_REQUEST_STAT, b, at, length));
    }

    /**
     * Does what the behaviour says with a request: writes its answer or error now or aside for later
     * (in {@code late}), or nothing; and counts it.
     */
    private void treat(SwitchBehaviour.Reply reply, int delayMs, Requests tally, ArrayDeque<LateReply> late,
                       Consumer<ByteBuffer> answer, Consumer<ByteBuffer> error) {
        tally.received++;
        if (reply == SwitchBehaviour.Reply.IGNORE) {
            tally.ignored++;
            return;
        }
        Consumer<ByteBuffer> write = reply == SwitchBehaviour.Reply.ANSWER ? answer : error;
        if (reply == SwitchBehaviour.Reply.ERROR) {
            tally.refused++;
        }
        if (delayMs == 0) {
            write.accept(out);
            return;
        }
        if (aside == null) {
            aside = ByteBuffer.allocate(replyRoom);
        }
        aside.clear();
        write.accept(aside);
        byte[] bytes = new byte[aside.position()];
        aside.get(0, bytes);
        late.addLast(new LateReply(System.nanoTime() + delayMs * 1_000_000L, bytes));
        tally.late++;
    }

    /** The switch's own answer to a statistics request. */
    private void statsReply(ByteBuffer to, ByteBuffer b, int at, int length, int requestXid, int statsType) {
        boolean v13 = version == OpenFlowVersion.OF_13;
        switch (statsType) {
            case SwitchMessages.STATS_DESC -> SwitchMessages.descReply(to, version, requestXid, dpid);
            case SwitchMessages.STATS_AGGREGATE -> SwitchMessages.aggregateReply(to, version, requestXid);
            case SwitchMessages.STATS_PORT -> {
                if (cabling != null) {
                    SwitchMessages.portStatsReply(to, version, requestXid, ports);
                } else {
                    SwitchMessages.emptyStatsReply(to, version, requestXid, statsType);
                }
            }
            case SwitchMessages.STATS_FLOW, SwitchMessages.STATS_TABLE, SwitchMessages.STATS_QUEUE ->
                    SwitchMessages.emptyStatsReply(to, version, requestXid, statsType);
            case SwitchMessages.STATS_GROUP, SwitchMessages.STATS_GROUP_DESC, SwitchMessages.STATS_METER,
                    SwitchMessages.STATS_METER_CONFIG, SwitchMessages.STATS_TABLE_FEATURES -> {
                if (v13) {
                    SwitchMessages.emptyStatsReply(to, version, requestXid, statsType);
                } else {
                    badStats(to, b, at, length);
                }
            }
            case SwitchMessages.STATS_PORT_DESC -> {
                if (v13) {
                    SwitchMessages.portDescReply(to, version, requestXid, dpid, ports);
                } else {
                    badStats(to, b, at, length);
                }
            }
            default -> badStats(to, b, at, length);
        }
    }

    private void badStats(ByteBuffer to, ByteBuffer b, int at, int length) {
        SwitchMessages.error(to, version, SwitchMessages.ERROR_BAD_REQUEST, SwitchMessages.BAD_REQUEST_STAT, b, at,
                length);
    }

    /** The controller's HELLO: it must be able to speak our version. */
    private void checkHello(ByteBuffer b, int at, int length) throws ProtocolException {
        int theirs = Header.version(b, at);
        Integer bitmap = null;
        int element = at + Header.LENGTH;
        int end = at + length;
        while (element + 4 <= end) {
            int elementType = b.getShort(element) & 0xffff;
            int elementLength = b.getShort(element + 2) & 0xffff;
            if (elementLength < 4 || element + elementLength > end) {
                break;
            }
            if (elementType == 1 && elementLength >= 8) {
                bitmap = b.getInt(element + 4);
            }
            element += (elementLength + 7) / 8 * 8;
        }
        boolean agreed = bitmap != null ? (bitmap & (1 << version.wire())) != 0 : theirs >= version.wire();
        if (!agreed) {
            String offered = bitmap != null ? "versions bitmap 0x" + Integer.toHexString(bitmap)
                    : "up to wire version " + theirs;
            throw new ProtocolException("switch " + number + ": the controller does not speak OpenFlow "
                    + version.label() + " (its HELLO offers " + offered + "); try another -V");
        }
    }

    int ports() {
        return ports;
    }

    OpenFlowVersion version() {
        return version;
    }

    /**
     * An LLDP frame arrived at {@code inPort} over a cable: it goes to the controller as an unbuffered
     * packet-in, whole, as a switch's table-miss sends it.
     */
    void lldpIn(int inPort, ByteBuffer frame, int at, int length) {
        reserve(PacketIn.headerLength(version) + length);
        PacketIn.writeUnbuffered(out, version, xid++, inPort, frame, at, length);
    }

    /** Makes room for {@code bytes} more in the output buffer (rarely needed: it grows once if at all). */
    private void reserve(int bytes) {
        if (out.remaining() >= bytes) {
            return;
        }
        ByteBuffer bigger = ByteBuffer.allocateDirect(Math.max(out.capacity() * 2, out.position() + bytes));
        out.flip();
        bigger.put(out);
        out = bigger;
    }

    /** Where the LLDP packet-outs of a switch in an emulated fabric go: the cables between switches. */
    interface Cabling {
        /** The controller sent {@code from} the PACKET_OUT at {@code at}, which carries an LLDP frame. */
        void packetOut(EmulatedSwitch from, ByteBuffer message, int at, int length);
    }

    /** A reply written aside, and when it is due (System.nanoTime). */
    private record LateReply(long dueNanos, byte[] bytes) {
    }

    /** Counts of one kind of optional request (statistics or role): received, and what became of them. */
    static final class Requests {
        int received;
        /** Answered or refused late (included in refused when refused). */
        int late;
        /** Answered with an OpenFlow error. */
        int refused;
        int ignored;

        /** Adds another switch's counts to these. */
        void add(Requests other) {
            received += other.received;
            late += other.late;
            refused += other.refused;
            ignored += other.ignored;
        }

        @Override
        public String toString() {
            return received + " (" + ignored + " ignored, " + late + " answered late, " + refused
                    + " refused with an error)";
        }
    }

    /** The controller broke the protocol; the run cannot go on. */
    static final class ProtocolException extends Exception {
        private static final long serialVersionUID = 1L;

        ProtocolException(String message) {
            super(message);
        }
    }
}
