package io.heliograph.webui;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.MessageStatistics;
import io.heliograph.core.MetricSource;
import io.heliograph.core.StateBounds;
import io.heliograph.core.SwitchService;

/**
 * The parts of the controller the web bundle's own resources read: its version and the core services,
 * each of which may be absent while its bundle is stopped (the supplier then answers null), and the
 * apps' bounded tables and metrics, from the apps running now.
 *
 * @param stateBounds   every {@link StateBounds} registered now (the apps' whiteboard)
 * @param metricSources every {@link MetricSource} registered now
 */
record ControllerView(String version, Supplier<SwitchService> switches, Supplier<MessageStatistics> messages,
        Supplier<Collection<StateBounds>> stateBounds, Supplier<Collection<MetricSource>> metricSources) {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerView.class);

    /** Every bound of every app running now, by table name; an app that fails to say is left out and logged. */
    List<StateBounds.Bound> bounds() {
        List<StateBounds.Bound> all = gather(stateBounds.get(), StateBounds::bounds);
        all.sort(Comparator.comparing(StateBounds.Bound::table).thenComparing(StateBounds.Bound::setting));
        return all;
    }

    /** Every sample of every app's metrics, in the order the apps gave them; as {@link #bounds} for failures. */
    List<MetricSource.Sample> appSamples() {
        return gather(metricSources.get(), MetricSource::samples);
    }

    private static <S, T> List<T> gather(Collection<S> sources, Function<S, List<T>> read) {
        List<T> all = new ArrayList<>();
        for (S source : sources) {
            try {
                List<T> some = read.apply(source);
                if (some != null) {
                    some.forEach(item -> {
                        if (item != null) {
                            all.add(item);
                        }
                    });
                }
            } catch (RuntimeException e) {
                // An app's bug must not take the others' figures (or the scrape) with it.
                LOG.warn("{} failed to report; left out: {}", source.getClass().getName(), e.toString());
            }
        }
        return all;
    }
}
