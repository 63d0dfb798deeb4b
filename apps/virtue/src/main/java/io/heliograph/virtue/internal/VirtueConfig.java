package io.heliograph.virtue.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(id = VirtueComponent.PID, name = "Heliograph Virtue",
        description = "Experiments from EDFs: VLAN routes through the static flows app, measurements from the "
                + "statistics app and host agents into a SQL database, and the placement optimisers.")
@interface VirtueConfig {

    @AttributeDefinition(description = "Seconds between two measurements of a running experiment (the thesis "
            + "used 5); the statistics app's own poll interval should not be longer", min = "1", max = "3600")
    int sampleSeconds() default 5;

    @AttributeDefinition(description = "JDBC URL of the measurement database: empty for the embedded H2 database "
            + "in the data directory (virtue/), or jdbc:postgresql://host:port/database")
    String databaseUrl() default "";

    @AttributeDefinition(description = "Database user (PostgreSQL)")
    String databaseUser() default "";

    @AttributeDefinition(description = "Database password (PostgreSQL)", type = org.osgi.service.metatype.annotations.AttributeType.PASSWORD)
    String databasePassword() default "";

    @AttributeDefinition(description = "The first VLAN id of the routes: PM i of an EDF gets the four ids from "
            + "vlanBase + 4i; every id must stay at most 4094", min = "1", max = "4091")
    int vlanBase() default 1000;

    @AttributeDefinition(description = "Priority of the static entries that carry an experiment's routes",
            min = "1", max = "65535")
    int priority() default 40000;

    @AttributeDefinition(description = "Optimisations run at once on the instance that runs them (each "
            + "experiment has at most one at a time)", min = "1", max = "64")
    int optimiserThreads() default 1;

    @AttributeDefinition(description = "The most measurement rows held in memory while the database cannot be "
            + "written; beyond it the oldest are dropped and counted", min = "1000", max = "100000000")
    int maxPendingRows() default 1_000_000;
}
