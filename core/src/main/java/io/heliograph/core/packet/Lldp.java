package io.heliograph.core.packet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * An LLDP data unit (IEEE 802.1AB) as a zero-copy view. Valid when it starts with the mandatory
 * chassis ID, port ID and TTL TLVs and every TLV up to the End TLV (or the end of the bytes) fits.
 *
 * <pre>{@code
 * Lldp lldp = eth.lldp();
 * if (lldp != null && lldp.isValid()) {
 *     Lldp.Tlv ours = lldp.organizationSpecific(0x0026e1, 0);   // OUI, subtype
 *     ...
 * }
 * }</pre>
 */
public final class Lldp extends HeaderView {

    public static final int TLV_END = 0;
    public static final int TLV_CHASSIS_ID = 1;
    public static final int TLV_PORT_ID = 2;
    public static final int TLV_TTL = 3;
    public static final int TLV_PORT_DESCRIPTION = 4;
    public static final int TLV_SYSTEM_NAME = 5;
    public static final int TLV_SYSTEM_DESCRIPTION = 6;
    public static final int TLV_SYSTEM_CAPABILITIES = 7;
    public static final int TLV_MANAGEMENT_ADDRESS = 8;
    public static final int TLV_ORGANIZATION_SPECIFIC = 127;

    /** Chassis ID subtype: a MAC address. */
    public static final int CHASSIS_MAC_ADDRESS = 4;
    /** Chassis ID and port ID subtype: locally assigned. */
    public static final int LOCALLY_ASSIGNED = 7;

    private static final String[] MANDATORY = {"chassis ID", "port ID", "TTL"};

    /** The offset of each mandatory TLV's header, and the end of the TLVs (the End TLV or the limit). */
    private int chassis;
    private int port;
    private int ttl;
    private int end;
    private List<Tlv> tlvs;

    Lldp(byte[] data, int offset, int limit) {
        super(data, offset, limit);
        validate();
    }

    @Override
    String check() {
        int at = offset;
        int index = 0;
        int[] mandatory = new int[3];
        while (at < limit) {
            if (limit - at < 2) {
                return "LLDP: TLV " + (index + 1) + " at byte " + (at - offset) + " is cut off in its header";
            }
            int type = u16(at) >>> 9;
            int length = u16(at) & 0x1ff;
            if (length > limit - at - 2) {
                return "LLDP: TLV " + (index + 1) + " (type " + type + ") at byte " + (at - offset) + " claims "
                        + length + " bytes, " + (limit - at - 2) + " left";
            }
            if (index < 3) {
                if (type != index + 1) {
                    return "LLDP: TLV " + (index + 1) + " is type " + type + ", expected the " + MANDATORY[index]
                            + " TLV (type " + (index + 1) + ")";
                }
                if (length < 2) {
                    return "LLDP: the " + MANDATORY[index] + " TLV has " + length + " bytes, it needs at least 2";
                }
                mandatory[index] = at;
            }
            if (type == TLV_END) {
                break;
            }
            at += 2 + length;
            index++;
        }
        if (index < 3) {
            return "LLDP: ends after " + index + " TLVs, before the " + MANDATORY[index] + " TLV";
        }
        chassis = mandatory[0];
        port = mandatory[1];
        ttl = mandatory[2];
        end = Math.min(at, limit);
        return null;
    }

    @Override
    public int headerLength() {
        return isValid() ? end - offset : 0;
    }

    @Override
    int payloadEnd() {
        return end;
    }

    /** The chassis ID subtype, e.g. {@link #CHASSIS_MAC_ADDRESS}. */
    public int chassisIdSubtype() {
        return isValid() ? u8(chassis + 2) : 0;
    }

    /** A copy of the chassis ID (after its subtype byte). */
    public byte[] chassisId() {
        return isValid() ? Arrays.copyOfRange(data, chassis + 3, chassis + 2 + tlvLength(chassis)) : new byte[0];
    }

    /** The port ID subtype, e.g. {@link #LOCALLY_ASSIGNED}. */
    public int portIdSubtype() {
        return isValid() ? u8(port + 2) : 0;
    }

    /** A copy of the port ID (after its subtype byte). */
    public byte[] portId() {
        return isValid() ? Arrays.copyOfRange(data, port + 3, port + 2 + tlvLength(port)) : new byte[0];
    }

    /** The time to live in seconds. */
    public int ttl() {
        return isValid() ? u16(ttl + 2) : 0;
    }

    /** Every TLV before the End TLV, the mandatory ones included, in order. */
    public List<Tlv> tlvs() {
        if (!isValid()) {
            return List.of();
        }
        if (tlvs == null) {
            List<Tlv> list = new ArrayList<>();
            for (int at = offset; at < end; at += 2 + tlvLength(at)) {
                list.add(new Tlv(at));
            }
            tlvs = Collections.unmodifiableList(list);
        }
        return tlvs;
    }

    /** The first organisation-specific TLV with this OUI and subtype, or null. */
    public Tlv organizationSpecific(int oui, int subtype) {
        for (Tlv tlv : tlvs()) {
            if (tlv.isOrganizationSpecific() && tlv.oui() == oui && tlv.subtype() == subtype) {
                return tlv;
            }
        }
        return null;
    }

    private int tlvLength(int at) {
        return u16(at) & 0x1ff;
    }

    /** One TLV of a valid LLDP data unit. */
    public final class Tlv {

        private final int at;

        private Tlv(int at) {
            this.at = at;
        }

        public int type() {
            return u16(at) >>> 9;
        }

        /** The value's length in bytes. */
        public int length() {
            return tlvLength(at);
        }

        /** The offset of the value's first byte in the packet array. */
        public int valueOffset() {
            return at + 2;
        }

        /** A copy of the value. */
        public byte[] value() {
            return Arrays.copyOfRange(data, at + 2, at + 2 + length());
        }

        /** Whether this is an organisation-specific TLV with room for its OUI and subtype. */
        public boolean isOrganizationSpecific() {
            return type() == TLV_ORGANIZATION_SPECIFIC && length() >= 4;
        }

        /** The 24-bit OUI of an organisation-specific TLV, or -1. */
        public int oui() {
            return isOrganizationSpecific() ? s32(at + 1) & 0xff_ffff : -1;
        }

        /** The subtype of an organisation-specific TLV, or -1. */
        public int subtype() {
            return isOrganizationSpecific() ? u8(at + 5) : -1;
        }

        /** A copy of an organisation-specific TLV's information (after OUI and subtype); empty for other TLVs. */
        public byte[] organizationValue() {
            return isOrganizationSpecific() ? Arrays.copyOfRange(data, at + 6, at + 2 + length()) : new byte[0];
        }

        @Override
        public String toString() {
            return "Tlv[type=" + type() + ", length=" + length() + "]";
        }
    }
}
