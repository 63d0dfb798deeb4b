package io.heliograph.circuit.internal;

import java.util.Map;

/**
 * The running circuit app as its REST resources see it (a service of this bundle only). Bodies are the
 * request's text; a refusal is a {@link CircuitRefusal} naming the field, thrown before anything changed.
 */
public interface Circuit {

    /** The current and next weeks. */
    Map<String, Object> schedule();

    /** The scheduler and estimator in use, the loop's state and error, the executor's status. */
    Map<String, Object> scheduler();

    /** Chooses the scheduler and estimator ({@code {"scheduler", "estimator", "fixedWeek"}}); returns {@link #scheduler}. */
    Map<String, Object> choose(String body);

    /** The demand the current week was made from, and each estimator's estimate now. */
    Map<String, Object> demand();

    /** The circuit groups. */
    Map<String, Object> groupsJson();

    /** The replica rack for a writer's rack (the query's text). */
    Map<String, Object> placement(String writerRack);

    /** A batch of ADU reports, all or none. */
    Map<String, Object> reportAdus(String body);
}
