package io.heliograph.bench;

/**
 * The two OpenFlow versions the load generator speaks, with the message type codes that differ
 * between them (1.3 renumbered everything after PORT_MOD). Only what an emulated switch and the
 * responder read or write is here.
 */
public enum OpenFlowVersion {

    OF_10("1.0", 1, 16, 17, 18, 19, 20, -1, -1),
    OF_13("1.3", 4, 18, 19, 20, 21, 22, 24, 26);

    // Types both versions number alike.
    static final int HELLO = 0;
    static final int ERROR = 1;
    static final int ECHO_REQUEST = 2;
    static final int ECHO_REPLY = 3;
    static final int VENDOR = 4;
    static final int FEATURES_REQUEST = 5;
    static final int FEATURES_REPLY = 6;
    static final int GET_CONFIG_REQUEST = 7;
    static final int GET_CONFIG_REPLY = 8;
    static final int SET_CONFIG = 9;
    static final int PACKET_IN = 10;
    static final int PACKET_OUT = 13;
    static final int FLOW_MOD = 14;
    /** Where a PACKET_IN carries its buffer id, in both versions. */
    static final int PACKET_IN_BUFFER_ID = 8;

    private final String label;
    private final int wire;
    final int statsRequest;
    final int statsReply;
    final int barrierRequest;
    final int barrierReply;
    final int queueConfigRequest;
    /** ROLE_REQUEST; the role reply is the next type. -1: the version has none. */
    final int roleRequest;
    /** GET_ASYNC_REQUEST; the reply is the next type. -1: the version has none. */
    final int asyncRequest;

    OpenFlowVersion(String label, int wire, int statsRequest, int statsReply, int barrierRequest, int barrierReply,
                    int queueConfigRequest, int roleRequest, int asyncRequest) {
        this.label = label;
        this.wire = wire;
        this.statsRequest = statsRequest;
        this.statsReply = statsReply;
        this.barrierRequest = barrierRequest;
        this.barrierReply = barrierReply;
        this.queueConfigRequest = queueConfigRequest;
        this.roleRequest = roleRequest;
        this.asyncRequest = asyncRequest;
    }

    /** Where a FLOW_MOD carries its buffer id. */
    int flowModBufferId() {
        return this == OF_10 ? 64 : 32;
    }

    /** The version byte of every message header. */
    public int wire() {
        return wire;
    }

    /** "1.0" or "1.3", as on the command line. */
    public String label() {
        return label;
    }

    /** The version a label names; null when it names neither. */
    public static OpenFlowVersion ofLabel(String label) {
        for (OpenFlowVersion v : values()) {
            if (v.label.equals(label)) {
                return v;
            }
        }
        return null;
    }

    /** The version a header byte says; null for one we do not speak. */
    public static OpenFlowVersion ofWire(int wire) {
        for (OpenFlowVersion v : values()) {
            if (v.wire == wire) {
                return v;
            }
        }
        return null;
    }
}
