package io.heliograph.staticflows.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(id = StaticFlowsComponent.PID, name = "Heliograph static flows",
        description = "Operator-defined flow entries, groups and meters: validated, kept in the cluster's shared store, "
                + "installed by each switch's master and reconciled whenever a switch connects or gets a new master "
                + "(after the switch is announced; a switch whose tables cannot be read is served all the same).")
@interface StaticFlowsConfig {

    @AttributeDefinition(description = "Folder of a legacy entry file (entries.json) to import into the cluster's store "
            + "at the first start; empty means <heliograph.data.dir>/staticflows")
    String directory() default "";

    @AttributeDefinition(description = "Remove static flows (by cookie), groups and meters this app installed that are "
            + "no longer defined, when a switch connects or gets a new master")
    boolean removeStale() default true;

    @AttributeDefinition(description = "Milliseconds before reconciling a switch is tried again when an attempt "
            + "failed (the switch did not answer the flow, group or meter statistics request within the OpenFlow "
            + "request timeout, answered it with an error, or did not confirm the push); each further retry waits "
            + "twice as long, up to reconcileRetryMaxMs", min = "100", max = "3600000")
    long reconcileRetryFirstMs() default 1_000;

    @AttributeDefinition(description = "The longest wait in milliseconds between two reconciliation attempts: a switch "
            + "that never answers is tried at this interval for as long as it stays connected, so one that starts "
            + "answering is reconciled; at least reconcileRetryFirstMs", min = "1000", max = "86400000")
    long reconcileRetryMaxMs() default 300_000;

    @AttributeDefinition(description = "Failed reconciliation attempts in a row after which a switch's reconciliation "
            + "is reported NOT_POSSIBLE (REST, web UI, metrics; logged once per switch). Its entries are pushed anyway "
            + "and listed UNVERIFIED; stale static flows stay on it until a read succeeds", min = "1", max = "1000")
    int reconcileNotPossibleAfter() default 3;
}
