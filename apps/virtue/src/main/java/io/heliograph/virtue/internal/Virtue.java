package io.heliograph.virtue.internal;

import java.util.Map;

/** The running Virtue app as its REST resources see it (a service of this bundle only). */
public interface Virtue {

    /** Experiments, host reports, optimisations. */
    ExperimentService experiments();

    /** Measurements recorded. */
    MeasurementQueries measurements();

    /** Where the app stands: its database and recorder, whether this instance measures and optimises. */
    Map<String, Object> status();
}
