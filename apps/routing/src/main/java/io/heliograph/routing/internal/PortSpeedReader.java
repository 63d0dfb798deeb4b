package io.heliograph.routing.internal;

import java.util.Set;

import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortDescProp;
import org.projectfloodlight.openflow.protocol.OFPortDescPropEthernet;
import org.projectfloodlight.openflow.protocol.OFPortFeatures;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.ver14.OFPortFeaturesSerializerVer14;
import org.projectfloodlight.openflow.protocol.ver15.OFPortFeaturesSerializerVer15;

/**
 * Reads a port's current speed from its description, wherever the version keeps it: OpenFlow 1.0
 * has only the "curr" feature bits; 1.1 to 1.3 add curr_speed in kbit/s; 1.4 and later move both
 * into the Ethernet port property. A speed of 0 (switches that do not fill it in) falls back to the
 * feature bits, through Loxi's {@link OFPortFeatures#getPortSpeed()}.
 */
final class PortSpeedReader {

    private PortSpeedReader() {
    }

    /** The speed in bits per second, or 0 when the description says nothing usable. */
    static long bitsPerSecond(OFPortDesc port) {
        OFVersion version = port.getVersion();
        if (version == OFVersion.OF_10) {
            return fromFeatureBits(port.getCurr());
        }
        if (version.compareTo(OFVersion.OF_14) < 0) {
            return orFeatureBits(port.getCurrSpeed(), port.getCurr());
        }
        for (OFPortDescProp property : port.getProperties()) {
            if (property instanceof OFPortDescPropEthernet ethernet) {
                return orFeatureBits(ethernet.getCurrSpeed(), featureBits(version, ethernet.getCurr()));
            }
        }
        return 0;
    }

    /** The Ethernet property carries the feature bits as a raw bitmap; Loxi's serializer names them. */
    private static Set<OFPortFeatures> featureBits(OFVersion version, long bitmap) {
        return version == OFVersion.OF_14 ? OFPortFeaturesSerializerVer14.ofWireValue((int) bitmap)
                : OFPortFeaturesSerializerVer15.ofWireValue((int) bitmap);
    }

    private static long orFeatureBits(long currSpeedKbps, Set<OFPortFeatures> curr) {
        return currSpeedKbps > 0 ? currSpeedKbps * 1000 : fromFeatureBits(curr);
    }

    /** The fastest rate among the set bits (a port should set one). */
    private static long fromFeatureBits(Set<OFPortFeatures> curr) {
        long fastest = 0;
        for (OFPortFeatures feature : curr) {
            fastest = Math.max(fastest, feature.getPortSpeed().getSpeedBps());
        }
        return fastest;
    }
}
