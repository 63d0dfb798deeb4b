package io.heliograph.core;

import java.util.Map;

import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.types.DatapathId;

/** The connected, announced switches (those whose handshake and initializers have completed). */
public interface SwitchService {

    /** An unmodifiable view of the active switches by datapath id. */
    Map<DatapathId, OFSwitch> getSwitches();

    /** The active switch with this datapath id, or null. */
    OFSwitch getSwitch(DatapathId id);

    /**
     * OpenFlow messages written to switches since the controller started, by type, over every
     * connection (types never sent are absent): the sending half of {@link MessageStatistics}.
     */
    default Map<OFType, Long> getMessagesSent() {
        return Map.of();
    }
}
