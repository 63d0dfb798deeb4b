package io.heliograph.webui;

import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

import org.springframework.web.servlet.HandlerMapping;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Times every HTTP request into a histogram by method, route and status class, for
 * {@code heliograph_rest_request_seconds} in {@code /metrics}. The route is the template the request
 * matched ({@code /api/v1/switches/{dpid}}), never the raw path, and methods outside HTTP's usual
 * seven count as {@code OTHER}, so what a client sends cannot grow the number of series: it is
 * bounded by the routes the running apps map. A request Spring did not map (refused by
 * authentication, not found, the UI's files) counts under route {@code none}.
 *
 * <p>It is the outermost filter, so a request refused before Spring sees it is timed too. A request
 * that goes asynchronous (the event stream) is not timed: its length is the client's choice.
 */
final class RestLatency implements Filter {

    /** Upper bounds of the buckets, in seconds. */
    static final double[] BOUNDS_SECONDS = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10};

    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");

    /** One series' label values. */
    record Key(String method, String route, String status) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int c = route.compareTo(o.route);
            c = c != 0 ? c : method.compareTo(o.method);
            return c != 0 ? c : status.compareTo(o.status);
        }
    }

    /** One series' buckets (not cumulative), count and sum. */
    static final class Histogram {
        final LongAdder[] buckets = new LongAdder[BOUNDS_SECONDS.length + 1];
        final LongAdder nanos = new LongAdder();

        Histogram() {
            for (int i = 0; i < buckets.length; i++) {
                buckets[i] = new LongAdder();
            }
        }

        void record(long elapsedNanos) {
            double seconds = elapsedNanos / 1e9;
            int i = 0;
            while (i < BOUNDS_SECONDS.length && seconds > BOUNDS_SECONDS[i]) {
                i++;
            }
            buckets[i].increment();
            nanos.add(elapsedNanos);
        }
    }

    private final ConcurrentMap<Key, Histogram> series = new ConcurrentHashMap<>();

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        long start = System.nanoTime();
        try {
            chain.doFilter(req, res);
        } finally {
            if (!req.isAsyncStarted()) {
                record((HttpServletRequest) req, (HttpServletResponse) res, System.nanoTime() - start);
            }
        }
    }

    private void record(HttpServletRequest request, HttpServletResponse response, long elapsedNanos) {
        String method = request.getMethod().toUpperCase(Locale.ROOT);
        Object route = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        record(METHODS.contains(method) ? method : "OTHER", route instanceof String r ? r : "none",
                response.getStatus(), elapsedNanos);
    }

    void record(String method, String route, int status, long elapsedNanos) {
        series.computeIfAbsent(new Key(method, route, status / 100 + "xx"), k -> new Histogram()).record(elapsedNanos);
    }

    /** Every series so far, in route, method, status order. */
    Map<Key, Histogram> series() {
        return new TreeMap<>(series);
    }

    /** Writes the family {@code heliograph_rest_request_seconds}. */
    void writeTo(PrometheusText out) {
        String name = "heliograph_rest_request_seconds";
        out.family(name, "histogram", "HTTP requests by method, route template and status class, and how long "
                + "they took to answer (the event stream is left out)");
        series().forEach((key, h) -> {
            Map<String, String> labels = new TreeMap<>(Map.of("method", key.method(), "route", key.route(),
                    "status", key.status()));
            long cumulative = 0;
            for (int i = 0; i < h.buckets.length; i++) {
                cumulative += h.buckets[i].sum();
                labels.put("le", i < BOUNDS_SECONDS.length ? PrometheusText.number(BOUNDS_SECONDS[i]) : "+Inf");
                out.sample(name + "_bucket", labels, cumulative);
            }
            labels.remove("le");
            out.sample(name + "_sum", labels, h.nanos.sum() / 1e9);
            out.sample(name + "_count", labels, cumulative);
        });
    }
}
