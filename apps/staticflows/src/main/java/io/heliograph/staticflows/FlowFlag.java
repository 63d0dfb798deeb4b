package io.heliograph.staticflows;

/** Flags of a flow entry (OpenFlow's OFPFF_*; counts flags need OpenFlow 1.3). */
public enum FlowFlag {
    SEND_FLOW_REM, CHECK_OVERLAP, RESET_COUNTS, NO_PKT_COUNTS, NO_BYT_COUNTS
}
