package __PACKAGE__;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** The app's configuration, pid {@value __CLASS__Counter#PID}: etc/__PACKAGE__.cfg on the controller. */
@ObjectClassDefinition(id = __CLASS__Counter.PID, name = "__NAME__",
        description = "Counts the packet-ins each switch sends.")
@interface __CLASS__Config {

    @AttributeDefinition(description = "Log every Nth packet-in of a switch (0 = never)", min = "0")
    long logEvery() default 0;
}
