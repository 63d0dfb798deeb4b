package io.heliograph.core.packet;

/**
 * What IPv4 and IPv6 views share: the upper-layer view (TCP, UDP, ICMP...), parsed once on first
 * request and only from the first fragment, since later fragments carry no upper-layer header.
 */
abstract class IpHeader extends HeaderView {

    /** Makes the view of an upper-layer header over the packet's payload. */
    interface UpperLayer<T extends HeaderView> {
        T view(byte[] data, int offset, int limit);
    }

    private HeaderView upper;

    IpHeader(byte[] data, int offset, int limit) {
        super(data, offset, limit);
    }

    /** The upper-layer protocol number. */
    public abstract int protocol();

    /** The fragment offset in bytes; 0 for the first fragment or an unfragmented packet. */
    public abstract int fragmentOffset();

    /** The upper-layer view, or null when the packet carries another protocol or is not the first fragment. */
    @SuppressWarnings("unchecked")
    final <T extends HeaderView> T upperLayer(int expectedProtocol, UpperLayer<T> layer) {
        if (!isValid() || protocol() != expectedProtocol || fragmentOffset() != 0) {
            return null;
        }
        if (upper == null) {
            upper = layer.view(data, payloadOffset(), payloadEnd());
        }
        return (T) upper;
    }
}
