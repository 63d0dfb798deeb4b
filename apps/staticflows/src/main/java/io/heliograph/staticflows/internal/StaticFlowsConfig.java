package io.heliograph.staticflows.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(id = StaticFlowsComponent.PID, name = "Heliograph static flows",
        description = "Operator-defined flow entries, groups and meters: validated, kept in the cluster's shared store, "
                + "installed by each switch's master and reconciled whenever a switch connects or gets a new master.")
@interface StaticFlowsConfig {

    @AttributeDefinition(description = "Folder of a legacy entry file (entries.json) to import into the cluster's store "
            + "at the first start; empty means <heliograph.data.dir>/staticflows")
    String directory() default "";

    @AttributeDefinition(description = "Remove static flows (by cookie), groups and meters this app installed that are "
            + "no longer defined, when a switch connects or gets a new master")
    boolean removeStale() default true;
}
