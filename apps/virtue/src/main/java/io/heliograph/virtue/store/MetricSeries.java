package io.heliograph.virtue.store;

import java.time.Instant;
import java.util.List;

/** One VM's values of one metric ({@value HostReport#CPU} included), oldest first. */
public record MetricSeries(String vm, String metric, List<Point> points) {

    /** A value at the instant it was reported. */
    public record Point(Instant at, double value) {
    }

    public MetricSeries {
        points = List.copyOf(points);
    }
}
