package io.heliograph.webui.rest;

import org.projectfloodlight.openflow.protocol.OFVersion;

/** OpenFlow versions as people write them: {@code OF_13} is "OpenFlow 1.3". */
final class VersionNames {

    private VersionNames() {
    }

    static String of(OFVersion version) {
        String digits = version.name().substring(3);
        return "OpenFlow " + digits.charAt(0) + "." + digits.substring(1);
    }
}
