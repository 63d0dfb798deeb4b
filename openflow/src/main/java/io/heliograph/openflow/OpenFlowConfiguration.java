package io.heliograph.openflow;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of pid {@code io.heliograph.openflow}. Property names are the method names, with
 * {@code _} read as {@code .} (so {@code tls_port} is {@code tls.port}).
 */
@ObjectClassDefinition(name = "Heliograph OpenFlow channel",
        description = "OpenFlow listener, version negotiation, handshake, keepalive and TLS")
public @interface OpenFlowConfiguration {

    @AttributeDefinition(description = "OpenFlow TCP port")
    int port() default OpenFlowSettings.DEFAULT_PORT;

    @AttributeDefinition(description = "Listen address")
    String address() default "0.0.0.0";

    @AttributeDefinition(description = "I/O threads (event loops); 0 = number of cores")
    int ioThreads() default 0;

    @AttributeDefinition(description = "OpenFlow versions offered, comma-separated, from 1.0, 1.3, 1.4, 1.5")
    String versions() default "1.0,1.3,1.4,1.5";

    @AttributeDefinition(description = "Time for HELLO through initializers before a switch is dropped (ms); the"
            + " handshake waits only for FEATURES and, on 1.3+, the port description")
    long handshakeTimeoutMs() default 15_000;

    @AttributeDefinition(description = "Read silence before an ECHO_REQUEST is sent (ms)")
    long echoIdleMs() default 5_000;

    @AttributeDefinition(description = "Time to wait for the ECHO_REPLY before disconnecting (ms)")
    long echoTimeoutMs() default 5_000;

    @AttributeDefinition(description = "Default timeout of request/response futures (ms)")
    long requestTimeoutMs() default 10_000;

    @AttributeDefinition(description = "miss_send_len in SET_CONFIG (0xffff = whole packet, unbuffered)")
    int missSendLen() default 0xffff;

    @AttributeDefinition(description = "Delete all flows on connect (and on 1.3+ install the table-miss flow to the controller);"
            + " not in a cluster, where the master of a switch reconciles its flows instead")
    boolean clearFlowsOnConnect() default true;

    @AttributeDefinition(description = "Bytes a switch may leave unread in the controller's outbound buffer; a switch"
            + " that passes it is not reading and is disconnected (at least 65536)")
    long maxPendingWriteBytes() default OpenFlowSettings.DEFAULT_MAX_PENDING_WRITE_BYTES;

    @AttributeDefinition(description = "Ports kept per switch (FEATURES on 1.0, port description, PORT_STATUS);"
            + " ports beyond it are refused, counted and logged once per switch", min = "1")
    int maxPorts() default SwitchLimits.DEFAULT_MAX_PORTS;

    @AttributeDefinition(description = "Requests an app may have awaiting answers from one switch (statistics,"
            + " barriers...); one more fails at once, counted", min = "1")
    int maxPendingRequests() default SwitchLimits.DEFAULT_MAX_PENDING_REQUESTS;

    @AttributeDefinition(description = "Packet-ins per second one switch may hand to the apps, on average; the"
            + " excess is dropped before it is decoded and counted, so one flooding switch cannot starve the"
            + " others; 0 = unlimited", min = "0")
    int packetInRate() default SwitchLimits.DEFAULT_PACKET_IN_RATE;

    @AttributeDefinition(description = "Packet-ins one switch may send at once above packetInRate (the size of"
            + " its token bucket)", min = "1")
    int packetInBurst() default SwitchLimits.DEFAULT_PACKET_IN_BURST;

    @AttributeDefinition(description = "A connection claiming the datapath id of a connected switch: probe"
            + " (the connected one is sent an ECHO; the newcomer is refused while it answers within echoTimeoutMs,"
            + " and replaces it when it is silent or gone), replace (at once) or refuse (while it is connected)",
            options = {
                @org.osgi.service.metatype.annotations.Option(label = "probe", value = "probe"),
                @org.osgi.service.metatype.annotations.Option(label = "replace", value = "replace"),
                @org.osgi.service.metatype.annotations.Option(label = "refuse", value = "refuse")})
    String duplicateDatapath() default "probe";

    @AttributeDefinition(name = "tls.port", description = "OpenFlow-over-TLS port; 0 = TLS off")
    int tls_port() default 0;

    @AttributeDefinition(name = "tls.certificate", description = "Controller certificate chain, PEM file")
    String tls_certificate() default "";

    @AttributeDefinition(name = "tls.key", description = "Controller private key, PEM (PKCS#8) file")
    String tls_key() default "";

    @AttributeDefinition(name = "tls.trust", description = "CA certificates (PEM) switch certificates must chain to; empty = no client certificate required")
    String tls_trust() default "";
}
