package io.heliograph.stats.internal;

import org.projectfloodlight.openflow.protocol.OFVersion;

/** The statistics the collector polls, and the first OpenFlow version that has each. */
enum StatsKind {
    PORT(OFVersion.OF_10),
    FLOW(OFVersion.OF_10),
    TABLE(OFVersion.OF_10),
    GROUP(OFVersion.OF_13),
    METER(OFVersion.OF_13);

    private final OFVersion since;

    StatsKind(OFVersion since) {
        this.since = since;
    }

    /** OpenFlow 1.1 and 1.2 had groups but no meters; the controller negotiates neither, so 1.3 is the line. */
    boolean isSupportedBy(OFVersion version) {
        return version.compareTo(since) >= 0;
    }
}
