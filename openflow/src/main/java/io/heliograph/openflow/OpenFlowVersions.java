package io.heliograph.openflow;

import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

import org.projectfloodlight.openflow.protocol.OFVersion;

/** Version names, wire numbers and the HELLO negotiation rule (OpenFlow 1.3.1+, section 7.5.1). */
public final class OpenFlowVersions {

    private OpenFlowVersions() {
    }

    /** Parses "1.0,1.3,1.5" (also accepts "OF_13"), rejecting names we do not speak. */
    public static SortedSet<OFVersion> parse(String list) {
        SortedSet<OFVersion> versions = new TreeSet<>();
        for (String raw : list.split(",")) {
            String name = raw.trim();
            if (name.isEmpty()) {
                continue;
            }
            OFVersion v = switch (name.replace("OF_", "").replace(".", "")) {
                case "10" -> OFVersion.OF_10;
                case "13" -> OFVersion.OF_13;
                case "14" -> OFVersion.OF_14;
                case "15" -> OFVersion.OF_15;
                default -> throw new IllegalArgumentException(
                        "unsupported OpenFlow version '" + name + "' (supported: 1.0, 1.3, 1.4, 1.5)");
            };
            versions.add(v);
        }
        if (versions.isEmpty()) {
            throw new IllegalArgumentException("no OpenFlow version given in '" + list + "'");
        }
        return Collections.unmodifiableSortedSet(versions);
    }

    /** The Loxi version for a wire number, or null for a number Loxi does not know. */
    public static OFVersion ofWire(int wire) {
        for (OFVersion v : OFVersion.values()) {
            if (v.getWireVersion() == wire) {
                return v;
            }
        }
        return null;
    }

    public static String name(OFVersion v) {
        return switch (v) {
            case OF_10 -> "1.0";
            case OF_11 -> "1.1";
            case OF_12 -> "1.2";
            case OF_13 -> "1.3";
            case OF_14 -> "1.4";
            case OF_15 -> "1.5";
        };
    }

    /**
     * The version to speak: with a bitmap, the highest version both sides list; without one (older
     * switches), the lower of the two header versions, if we offer it.
     */
    public static Optional<OFVersion> negotiate(SortedSet<OFVersion> offered, HelloMessage hello) {
        Set<Integer> theirs = hello.bitmapVersions();
        if (theirs != null) {
            OFVersion best = null;
            for (OFVersion v : offered) {
                if (theirs.contains(v.getWireVersion())) {
                    best = v;
                }
            }
            return Optional.ofNullable(best);
        }
        int lower = Math.min(hello.wireVersion(), offered.last().getWireVersion());
        OFVersion v = ofWire(lower);
        return v != null && offered.contains(v) ? Optional.of(v) : Optional.empty();
    }
}
