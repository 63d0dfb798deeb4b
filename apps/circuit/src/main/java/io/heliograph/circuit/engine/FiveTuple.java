package io.heliograph.circuit.engine;

/**
 * A flow as libADU names it: source and destination host addresses (as {@link CircuitGroups} writes
 * them), ports from 0 to 65535 and the IP protocol number (6 TCP, 17 UDP).
 */
public record FiveTuple(String src, int srcPort, String dst, int dstPort, int protocol) {

    public FiveTuple {
        if (src == null || src.isBlank()) {
            throw new IllegalArgumentException("flow.src must be a host address");
        }
        if (dst == null || dst.isBlank()) {
            throw new IllegalArgumentException("flow.dst must be a host address");
        }
        if (srcPort < 0 || srcPort > 65535) {
            throw new IllegalArgumentException("flow.srcPort must be from 0 to 65535, not " + srcPort);
        }
        if (dstPort < 0 || dstPort > 65535) {
            throw new IllegalArgumentException("flow.dstPort must be from 0 to 65535, not " + dstPort);
        }
        if (protocol < 0 || protocol > 255) {
            throw new IllegalArgumentException("flow.protocol must be an IP protocol number from 0 to 255, not " + protocol);
        }
    }

    @Override
    public String toString() {
        return src + ":" + srcPort + " > " + dst + ":" + dstPort + " proto " + protocol;
    }
}
