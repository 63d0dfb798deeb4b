package io.heliograph.circuit.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(id = CircuitComponent.PID, name = "Heliograph circuit scheduling",
        description = "Circuit scheduling for a reconfigurable datacenter network: the racks, the rates, the week, "
                + "the scheduler and demand estimator, replica placement advice and the fabric the executor drives.")
@interface CircuitConfig {

    @AttributeDefinition(description = "The racks' hosts: rack r's addresses separated by commas, racks by semicolons "
            + "(10.0.0.1,10.0.0.2;10.0.1.1,10.0.1.2); empty: 4 racks of 2 hosts, 10.0.r.h")
    String groups() default "";

    @AttributeDefinition(description = "Circuit rate of a rack's circuit port, Gb/s (Etalon: 80)")
    double circuitGbps() default 80;

    @AttributeDefinition(description = "Packet rate of a rack's packet port, Gb/s (Etalon: 10), at most the circuit's")
    double packetGbps() default 10;

    @AttributeDefinition(description = "The week, schedule microseconds (Etalon: 2000)", min = "2")
    long weekMicros() default 2_000;

    @AttributeDefinition(description = "The night (circuit reconfiguration), schedule microseconds (Etalon: 20)", min = "1")
    long nightMicros() default 20;

    @AttributeDefinition(description = "The shortest day including its night, schedule microseconds (Etalon: 200)", min = "2")
    long minDayMicros() default 200;

    @AttributeDefinition(description = "Real time = schedule time x timeScale (1000: a 2,000 us week lasts 2 s)",
            min = "1", max = "1000000000")
    long timeScale() default 1000;

    @AttributeDefinition(description = "The scheduler until one is chosen over REST: solstice, round-robin or fixed")
    String scheduler() default "solstice";

    @AttributeDefinition(description = "The demand estimator until one is chosen over REST: voq or adu")
    String estimator() default "voq";

    @AttributeDefinition(description = "The fixed scheduler's week as JSON ({\"weekMicros\":..,\"nightMicros\":..,"
            + "\"days\":[{\"upMicros\":..,\"sourceOf\":[..]}]}); empty: the strobe")
    String fixedWeek() default "";

    @AttributeDefinition(description = "Replica placement: a writer in rack i gets rack i + offset (mod racks), "
            + "from 1 to racks - 1", min = "1")
    int replicaOffset() default 1;

    @AttributeDefinition(description = "Replica placement: the offset rotates every so many milliseconds (0: never)",
            min = "0")
    long replicaRotationMillis() default 0;

    @AttributeDefinition(description = "ADU estimation: the most open flows kept per instance (beyond it the least "
            + "recently reported goes)", min = "1", max = "16777216")
    int maxAduFlows() default 65_536;

    @AttributeDefinition(description = "The fabric the schedule executor drives (the circuit switch, and per rack its "
            + "ToR and ports); empty: no executor, schedules are computed and served only")
    String fabric() default "";

    @AttributeDefinition(description = "Buffer resizing (the executor's, with a fabric): a source rack's VOQ grows "
            + "to resizeBigPackets this many schedule microseconds before its circuit comes up and shrinks to "
            + "resizeSmallPackets when it goes down; 0: no resizing", min = "0")
    long resizeTauMicros() default 0;

    @AttributeDefinition(description = "Buffer resizing: a VOQ's size while its circuit is not near, packets", min = "1")
    int resizeSmallPackets() default 16;

    @AttributeDefinition(description = "Buffer resizing: a VOQ's size from tau before its circuit to its end, packets",
            min = "1")
    int resizeBigPackets() default 128;

    @AttributeDefinition(description = "Buffer resizing: the device whose queue is each source rack's VOQs on the "
            + "host that emulates its ToR, comma-separated in rack order; empty: no resizing")
    String resizeDevices() default "";

    @AttributeDefinition(description = "Buffer resizing: the command that sets a device's queue limit, its arguments "
            + "separated by spaces, with {dev} and {packets} or {bytes} (packets x 1500); empty: "
            + "tc qdisc change dev {dev} root pfifo limit {packets}")
    String resizeCommand() default "";
}
