package io.heliograph.core.packet;

import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.MacAddress;

/**
 * An ARP packet (RFC 826) for IPv4 over Ethernet, as a zero-copy view. ARP for other hardware or
 * protocol types is reported as not parseable, since its addresses do not fit these accessors.
 */
public final class Arp extends HeaderView {

    public static final int REQUEST = 1;
    public static final int REPLY = 2;

    static final int LENGTH = 28;

    Arp(byte[] data, int offset, int limit) {
        super(data, offset, limit);
        validate();
    }

    @Override
    String check() {
        if (available() < 8) {
            return "ARP: " + available() + " bytes, the fixed part needs 8";
        }
        int hardware = u16(offset);
        int protocol = u16(offset + 2);
        int hardwareLength = u8(offset + 4);
        int protocolLength = u8(offset + 5);
        if (hardware != 1 || protocol != Ethernet.TYPE_IPV4 || hardwareLength != 6 || protocolLength != 4) {
            return "ARP: only Ethernet/IPv4 is parsed, this is hardware type " + hardware + " (length "
                    + hardwareLength + "), protocol 0x" + Integer.toHexString(protocol) + " (length "
                    + protocolLength + ")";
        }
        if (available() < LENGTH) {
            return "ARP: " + available() + " bytes, an Ethernet/IPv4 ARP packet needs " + LENGTH;
        }
        return null;
    }

    @Override
    public int headerLength() {
        return isValid() ? LENGTH : 0;
    }

    @Override
    int payloadEnd() {
        return offset + LENGTH; // what follows is Ethernet padding
    }

    /** {@link #REQUEST} or {@link #REPLY} (other values exist, e.g. RARP). */
    public int opcode() {
        return isValid() ? u16(offset + 6) : 0;
    }

    /** The sender's MAC address in the low 48 bits. */
    public long senderHardwareAddress() {
        return isValid() ? u48(offset + 8) : 0;
    }

    /** The sender's IPv4 address as a 32-bit int. */
    public int senderProtocolAddress() {
        return isValid() ? s32(offset + 14) : 0;
    }

    public long targetHardwareAddress() {
        return isValid() ? u48(offset + 18) : 0;
    }

    public int targetProtocolAddress() {
        return isValid() ? s32(offset + 24) : 0;
    }

    public MacAddress senderMac() {
        return MacAddress.of(senderHardwareAddress());
    }

    public IPv4Address senderIp() {
        return IPv4Address.of(senderProtocolAddress());
    }

    public MacAddress targetMac() {
        return MacAddress.of(targetHardwareAddress());
    }

    public IPv4Address targetIp() {
        return IPv4Address.of(targetProtocolAddress());
    }
}
