package io.heliograph.openflow;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.SortedSet;

import org.projectfloodlight.openflow.protocol.OFVersion;

import io.heliograph.core.OFSwitch;
import io.netty.channel.WriteBufferWaterMark;

/**
 * The channel layer's settings as plain values, so the Netty parts can be built and tested without
 * OSGi. The component turns its Configuration Admin properties into one of these.
 *
 * @param port           plain OpenFlow listener port (0 = ephemeral, for tests)
 * @param address        listen address
 * @param ioThreads      event-loop threads; each switch stays on one for its whole connection
 * @param versions       the versions we offer in HELLO
 * @param maxPendingWriteBytes bytes a switch may leave waiting in our outbound buffer before it is
 *                       disconnected as not reading (at least one maximum-size OpenFlow message)
 * @param tlsPort        TLS listener port; negative = off (the component maps the config's 0 to off)
 * @param tlsCertificate PEM certificate chain of the controller (TLS only)
 * @param tlsKey         PEM PKCS#8 private key of the controller (TLS only)
 * @param tlsTrust       PEM certificates a switch's client certificate must chain to; null = no client auth
 * @param limits         what one switch may make the controller hold or handle
 * @param duplicateDatapath what a second connection with a connected switch's datapath id gets
 */
public record OpenFlowSettings(
        int port,
        String address,
        int ioThreads,
        SortedSet<OFVersion> versions,
        Duration handshakeTimeout,
        Duration echoIdle,
        Duration echoTimeout,
        Duration requestTimeout,
        int missSendLen,
        boolean clearFlowsOnConnect,
        long maxPendingWriteBytes,
        int tlsPort,
        Path tlsCertificate,
        Path tlsKey,
        Path tlsTrust,
        SwitchLimits limits,
        DuplicateDatapath duplicateDatapath) {

    public static final int DEFAULT_PORT = 6653;

    /** Default of {@link #maxPendingWriteBytes}: room for a large flow push, small next to the heap. */
    public static final long DEFAULT_MAX_PENDING_WRITE_BYTES = 4L << 20;

    /** The smallest bound that still lets one maximum-size OpenFlow message wait for the socket. */
    public static final long MIN_MAX_PENDING_WRITE_BYTES = 0xffff + 1;

    /**
     * Netty's high water mark on switch channels, unless the bound is lower: past it the channel
     * reports itself unwritable, the write batcher flushes early and checks the bound.
     */
    static final int WRITE_HIGH_WATER_MARK = 128 << 10;

    public OpenFlowSettings {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(versions, "versions");
        if (versions.isEmpty()) {
            throw new IllegalArgumentException("at least one OpenFlow version must be offered");
        }
        if (ioThreads < 1) {
            throw new IllegalArgumentException("ioThreads must be at least 1, was " + ioThreads);
        }
        if (missSendLen < 0 || missSendLen > 0xffff) {
            throw new IllegalArgumentException("missSendLen must be within 0..65535, was " + missSendLen);
        }
        if (maxPendingWriteBytes < MIN_MAX_PENDING_WRITE_BYTES) {
            throw new IllegalArgumentException("maxPendingWriteBytes must be at least " + MIN_MAX_PENDING_WRITE_BYTES
                    + " (one maximum-size OpenFlow message), was " + maxPendingWriteBytes);
        }
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(duplicateDatapath, "duplicateDatapath");
        if (tlsPort >= 0 && (tlsCertificate == null || tlsKey == null)) {
            throw new IllegalArgumentException("a TLS port needs tls.certificate and tls.key");
        }
    }

    public boolean tlsEnabled() {
        return tlsPort >= 0;
    }

    /**
     * The water marks of a switch channel: the high mark at most half of what the bound leaves
     * beside {@link OFSwitch#WRITABLE_ROOM_BYTES}, so the bound is only ever checked (and can only
     * be passed) while the channel is unwritable, and a writer that waits for writability before
     * each such amount never passes it (the channel counts an overhead per buffer besides the bytes).
     */
    WriteBufferWaterMark writeBufferWaterMark() {
        int high = (int) Math.min(WRITE_HIGH_WATER_MARK, (maxPendingWriteBytes - OFSwitch.WRITABLE_ROOM_BYTES) / 2);
        return new WriteBufferWaterMark(high / 4, high);
    }

    /** Defaults for an in-JVM test or embedding: ephemeral port on loopback, every version, no TLS. */
    public static OpenFlowSettings defaults() {
        return new OpenFlowSettings(0, "127.0.0.1", Runtime.getRuntime().availableProcessors(),
                OpenFlowVersions.parse("1.0,1.3,1.4,1.5"), Duration.ofSeconds(10), Duration.ofSeconds(5),
                Duration.ofSeconds(5), Duration.ofSeconds(10), 0xffff, true, DEFAULT_MAX_PENDING_WRITE_BYTES, -1, null, null,
                null, SwitchLimits.DEFAULTS, DuplicateDatapath.PROBE);
    }

    public OpenFlowSettings withPort(int p) {
        return new OpenFlowSettings(p, address, ioThreads, versions, handshakeTimeout, echoIdle, echoTimeout,
                requestTimeout, missSendLen, clearFlowsOnConnect, maxPendingWriteBytes, tlsPort, tlsCertificate, tlsKey,
                tlsTrust, limits, duplicateDatapath);
    }

    public OpenFlowSettings withIoThreads(int n) {
        return new OpenFlowSettings(port, address, n, versions, handshakeTimeout, echoIdle, echoTimeout,
                requestTimeout, missSendLen, clearFlowsOnConnect, maxPendingWriteBytes, tlsPort, tlsCertificate, tlsKey,
                tlsTrust, limits, duplicateDatapath);
    }

    public OpenFlowSettings withVersions(SortedSet<OFVersion> v) {
        return new OpenFlowSettings(port, address, ioThreads, v, handshakeTimeout, echoIdle, echoTimeout,
                requestTimeout, missSendLen, clearFlowsOnConnect, maxPendingWriteBytes, tlsPort, tlsCertificate, tlsKey,
                tlsTrust, limits, duplicateDatapath);
    }

    public OpenFlowSettings withTimeouts(Duration handshake, Duration idle, Duration echo, Duration request) {
        return new OpenFlowSettings(port, address, ioThreads, versions, handshake, idle, echo, request,
                missSendLen, clearFlowsOnConnect, maxPendingWriteBytes, tlsPort, tlsCertificate, tlsKey, tlsTrust, limits,
                duplicateDatapath);
    }

    public OpenFlowSettings withClearFlows(boolean clear) {
        return new OpenFlowSettings(port, address, ioThreads, versions, handshakeTimeout, echoIdle, echoTimeout,
                requestTimeout, missSendLen, clear, maxPendingWriteBytes, tlsPort, tlsCertificate, tlsKey,
                tlsTrust, limits, duplicateDatapath);
    }

    public OpenFlowSettings withMaxPendingWriteBytes(long max) {
        return new OpenFlowSettings(port, address, ioThreads, versions, handshakeTimeout, echoIdle, echoTimeout,
                requestTimeout, missSendLen, clearFlowsOnConnect, max, tlsPort, tlsCertificate, tlsKey, tlsTrust, limits,
                duplicateDatapath);
    }

    public OpenFlowSettings withTls(int p, Path certificate, Path key, Path trust) {
        return new OpenFlowSettings(port, address, ioThreads, versions, handshakeTimeout, echoIdle, echoTimeout,
                requestTimeout, missSendLen, clearFlowsOnConnect, maxPendingWriteBytes, p, certificate, key, trust, limits,
                duplicateDatapath);
    }

    public OpenFlowSettings withLimits(SwitchLimits l) {
        return new OpenFlowSettings(port, address, ioThreads, versions, handshakeTimeout, echoIdle, echoTimeout,
                requestTimeout, missSendLen, clearFlowsOnConnect, maxPendingWriteBytes, tlsPort, tlsCertificate, tlsKey,
                tlsTrust, l, duplicateDatapath);
    }

    public OpenFlowSettings withDuplicateDatapath(DuplicateDatapath d) {
        return new OpenFlowSettings(port, address, ioThreads, versions, handshakeTimeout, echoIdle, echoTimeout,
                requestTimeout, missSendLen, clearFlowsOnConnect, maxPendingWriteBytes, tlsPort, tlsCertificate, tlsKey,
                tlsTrust, limits, d);
    }

    /** True when switching to {@code other} needs the listeners rebound (or the loops rebuilt). */
    boolean listenersDifferFrom(OpenFlowSettings other) {
        return port != other.port || !address.equals(other.address) || ioThreads != other.ioThreads
                || tlsPort != other.tlsPort || !Objects.equals(tlsCertificate, other.tlsCertificate)
                || !Objects.equals(tlsKey, other.tlsKey) || !Objects.equals(tlsTrust, other.tlsTrust);
    }
}
