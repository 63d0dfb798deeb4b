package io.heliograph.staticflows.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(id = StaticFlowsComponent.PID, name = "Heliograph static flows",
        description = "Operator-defined flow entries, groups and meters: validated, persisted, re-installed and "
                + "reconciled whenever a switch connects.")
@interface StaticFlowsConfig {

    @AttributeDefinition(description = "Folder of the entry file; empty means <heliograph.data.dir>/staticflows")
    String directory() default "";

    @AttributeDefinition(description = "Remove static flows (by cookie), groups and meters this app installed that are "
            + "no longer defined, when a switch connects")
    boolean removeStale() default true;
}
