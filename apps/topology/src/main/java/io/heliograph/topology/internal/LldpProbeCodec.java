package io.heliograph.topology.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.packet.Ethernet;
import io.heliograph.core.packet.Lldp;

/**
 * Writes and checks our LLDP probes. A probe is an ordinary LLDP frame (chassis ID, port ID and TTL
 * TLVs that tcpdump and Wireshark show, then an End TLV), plus one organisation-specific TLV that
 * carries what we trust: the sending switch and port, the time it was sent, this controller
 * instance's id, and an HMAC-SHA256 (truncated to 128 bits) over all of them with a key that exists
 * only in this controller's memory (in a cluster, in its instances' and their ZooKeeper's). Anyone
 * can send LLDP into a switch port (a host, another controller, a replay of one of ours), so only a
 * frame whose TLV verifies, and that is fresh, may create or refresh a link. The mandatory TLVs are informational and never trusted.
 *
 * <p>In a cluster every instance signs with the cluster's key ({@link #useKey}), so a probe one
 * instance sends from a switch it masters is verified by the instance that masters the switch where
 * it arrives.
 *
 * <p>Thread-safe: the key and instance id change together, as one immutable state, and each check
 * uses its own {@link Mac}.
 */
public final class LldpProbeCodec {

    /** The nearest-bridge group: 802.1 bridges never forward it, so a probe crosses one link only. */
    static final MacAddress LLDP_MULTICAST = MacAddress.of(0x0180_c200_000eL);

    /**
     * A company id from the IEEE's CID range (low nibble of the first octet is 1010), which no
     * registered OUI can have, so no vendor's TLV is mistaken for ours. Beacon and Floodlight use
     * 00:26:e1 subtype 0; their frames therefore read as foreign here.
     */
    static final int OUI = 0x4a4847;
    static final int SUBTYPE = 0x01;
    static final int FORMAT = 1;

    static final int MAC_BYTES = 16;
    /** Format, instance, dpid, port, sent-at: the signed part of our TLV's information. */
    private static final int SIGNED_BYTES = 1 + 4 + 8 + 4 + 8;
    /** Information after OUI and subtype. */
    static final int INFO_BYTES = SIGNED_BYTES + MAC_BYTES;

    private static final String ALGORITHM = "HmacSHA256";

    /** Why a frame was, or was not, taken as one of our probes. */
    public enum Outcome {
        ACCEPTED,
        /** Not an LLDP frame at all. */
        NOT_LLDP,
        /** LLDP that breaks the TLV rules or whose TLV of ours is cut short (e.g. miss_send_len). */
        MALFORMED,
        /** Valid LLDP without our TLV: a host's lldpd, a non-OpenFlow switch, another controller product. */
        FOREIGN,
        /** Our TLV, but signed by another Heliograph controller or cluster (or a restarted lone one: its key is per process). */
        OTHER_CONTROLLER,
        /** Our TLV claiming to be ours, with a signature that does not verify: forged or altered. */
        BAD_SIGNATURE,
        /** Correctly signed, but too old (or from the future): a replay. */
        STALE
    }

    /** The outcome of a check; {@code probe} is set when accepted, {@code detail} says why not otherwise. */
    public record Verdict(Outcome outcome, LldpProbe probe, String detail) {

        static Verdict reject(Outcome outcome, String detail) {
            return new Verdict(outcome, null, detail);
        }

        public boolean accepted() {
            return outcome == Outcome.ACCEPTED;
        }
    }

    /** The key, the instance id it goes with, and an initialised Mac to clone. */
    private record Signer(SecretKeySpec key, int instance, Mac prototype) {
    }

    private volatile Signer signer;

    /** A codec with a fresh random key and instance id, as every controller start gets. */
    public static LldpProbeCodec random() {
        SecureRandom random = new SecureRandom();
        byte[] key = new byte[32];
        random.nextBytes(key);
        return new LldpProbeCodec(key, random.nextInt());
    }

    public LldpProbeCodec(byte[] key, int instance) {
        this.signer = signer(key, instance);
    }

    /**
     * Signs and checks with another key from now on (the cluster's, shared by every instance). Probes
     * signed with the previous key and still in flight are then refused as another controller's.
     */
    public void useKey(byte[] key, int instance) {
        this.signer = signer(key, instance);
    }

    private static Signer signer(byte[] key, int instance) {
        if (key.length < 16) {
            throw new IllegalArgumentException("the LLDP key needs at least 16 bytes, got " + key.length);
        }
        SecretKeySpec spec = new SecretKeySpec(key.clone(), ALGORITHM);
        return new Signer(spec, instance, newMac(spec));
    }

    public int instance() {
        return signer.instance();
    }

    /**
     * The probe frame that {@code port} of {@code dpid} sends at {@code sentAtMs}, from the port's own
     * MAC address, announcing a TTL of {@code ttlSeconds}.
     */
    public byte[] encode(DatapathId dpid, OFPort port, MacAddress source, long sentAtMs, int ttlSeconds) {
        byte[] chassis = ("dpid:" + dpid.toString().replace(":", "")).getBytes(StandardCharsets.US_ASCII);
        byte[] portId = Integer.toUnsignedString(port.getPortNumber()).getBytes(StandardCharsets.US_ASCII);
        int length = 14 + (2 + 1 + chassis.length) + (2 + 1 + portId.length) + (2 + 2) + (2 + 4 + INFO_BYTES) + 2;
        ByteBuffer out = ByteBuffer.allocate(length);
        out.put(LLDP_MULTICAST.getBytes()).put(source.getBytes()).putShort((short) Ethernet.TYPE_LLDP);
        tlv(out, Lldp.TLV_CHASSIS_ID, 1 + chassis.length).put((byte) Lldp.LOCALLY_ASSIGNED).put(chassis);
        tlv(out, Lldp.TLV_PORT_ID, 1 + portId.length).put((byte) Lldp.LOCALLY_ASSIGNED).put(portId);
        tlv(out, Lldp.TLV_TTL, 2).putShort((short) Math.max(1, Math.min(0xffff, ttlSeconds)));
        tlv(out, Lldp.TLV_ORGANIZATION_SPECIFIC, 4 + INFO_BYTES).put((byte) (OUI >>> 16)).put((byte) (OUI >>> 8))
                .put((byte) OUI).put((byte) SUBTYPE);
        int signedAt = out.position();
        Signer current = signer;
        out.put((byte) FORMAT).putInt(current.instance()).putLong(dpid.getLong()).putInt(port.getPortNumber()).putLong(sentAtMs);
        out.put(sign(current, out.array(), signedAt));
        tlv(out, Lldp.TLV_END, 0);
        return out.array();
    }

    private static ByteBuffer tlv(ByteBuffer out, int type, int length) {
        return out.putShort((short) (type << 9 | length));
    }

    /** Checks a frame as it came in from a switch at {@code nowMs} (the clock the probes were stamped with). */
    public Verdict check(byte[] frame, long nowMs, long maxAgeMs) {
        return check(Ethernet.wrap(frame), nowMs, maxAgeMs);
    }

    public Verdict check(Ethernet frame, long nowMs, long maxAgeMs) {
        Lldp lldp = frame.lldp();
        if (lldp == null) {
            return Verdict.reject(Outcome.NOT_LLDP, frame.isValid() ? "EtherType 0x"
                    + Integer.toHexString(frame.etherType()) : frame.problem());
        }
        if (!lldp.isValid()) {
            return Verdict.reject(Outcome.MALFORMED, lldp.problem());
        }
        Lldp.Tlv ours = lldp.organizationSpecific(OUI, SUBTYPE);
        if (ours == null) {
            return Verdict.reject(Outcome.FOREIGN, "no Heliograph TLV");
        }
        byte[] info = ours.organizationValue();
        if (info.length != INFO_BYTES) {
            return Verdict.reject(Outcome.MALFORMED, "the Heliograph TLV carries " + info.length + " bytes, expected "
                    + INFO_BYTES);
        }
        ByteBuffer in = ByteBuffer.wrap(info);
        int format = in.get() & 0xff;
        if (format != FORMAT) {
            return Verdict.reject(Outcome.MALFORMED, "unknown Heliograph TLV format " + format);
        }
        int sender = in.getInt();
        DatapathId dpid = DatapathId.of(in.getLong());
        OFPort port = OFPort.of(in.getInt());
        long sentAtMs = in.getLong();
        Signer current = signer;
        if (sender != current.instance()) {
            return Verdict.reject(Outcome.OTHER_CONTROLLER, "sent by instance " + Integer.toHexString(sender)
                    + ", this is " + Integer.toHexString(current.instance()) + " (claims " + dpid + "/" + port + ")");
        }
        byte[] expected = sign(current, info, 0);
        byte[] actual = Arrays.copyOfRange(info, SIGNED_BYTES, INFO_BYTES);
        if (!MessageDigest.isEqual(expected, actual)) {
            return Verdict.reject(Outcome.BAD_SIGNATURE, "signature does not verify (claims " + dpid + "/" + port + ")");
        }
        long age = nowMs - sentAtMs;
        if (age < 0 || age > maxAgeMs) {
            return Verdict.reject(Outcome.STALE, "sent " + age + " ms ago, the limit is " + maxAgeMs + " ms (claims "
                    + dpid + "/" + port + ")");
        }
        return new Verdict(Outcome.ACCEPTED, new LldpProbe(dpid, port, sentAtMs), null);
    }

    /** The truncated HMAC of the {@value #SIGNED_BYTES} signed bytes at {@code from}. */
    private static byte[] sign(Signer signer, byte[] bytes, int from) {
        Mac mac = copyOfPrototype(signer);
        mac.update(bytes, from, SIGNED_BYTES);
        return Arrays.copyOf(mac.doFinal(), MAC_BYTES);
    }

    /** Mac objects are not thread-safe; cloning the initialised one skips the provider lookup. */
    private static Mac copyOfPrototype(Signer signer) {
        try {
            return (Mac) signer.prototype().clone();
        } catch (CloneNotSupportedException e) {
            return newMac(signer.key());
        }
    }

    private static Mac newMac(SecretKeySpec key) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            // Every Java runtime must provide HmacSHA256, so this is a broken runtime, not bad input.
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
