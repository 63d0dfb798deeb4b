package io.heliograph.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The Grafana dashboard the distribution ships, read as the tests check it: its panels' queries. */
public final class GrafanaDashboard {

    /** Where it is in the source tree ({@code deploy/src/main/dist/}) and in the distribution. */
    public static final String SHIPPED = "grafana/heliograph-dashboard.json";

    private static final Pattern METRIC = Pattern.compile("\\b(?:heliograph|jvm|process)_[a-z0-9_]+");

    private final JsonNode json;

    private GrafanaDashboard(JsonNode json) {
        this.json = json;
    }

    public static GrafanaDashboard read(Path file) {
        try {
            return new GrafanaDashboard(new ObjectMapper().readTree(Files.readString(file)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dashboard " + file, e);
        }
    }

    public JsonNode json() {
        return json;
    }

    /** The panels' queries ({@code expr}, PromQL with Grafana's variables), in order. */
    public List<String> panelQueries() {
        List<String> all = new ArrayList<>();
        json.findValues("expr").forEach(expr -> all.add(expr.asText()));
        return all;
    }

    /**
     * A panel query as Prometheus would get it from Grafana with every instance and switch chosen:
     * {@code $__rate_interval} becomes {@code rateInterval}, {@code $instance} and {@code $dpid} {@code .*}.
     */
    public static String expand(String query, String rateInterval) {
        return query.replace("$__rate_interval", rateInterval).replace("$instance", ".*").replace("$dpid", ".*");
    }

    /** Every query of every panel and template variable, in order. */
    public List<String> queries() {
        List<String> all = panelQueries();
        json.at("/templating/list").forEach(v -> {
            if (v.path("query").has("query")) {
                all.add(v.at("/query/query").asText());
            }
        });
        return all;
    }

    /** Every metric name the queries use (the controller's {@code heliograph_*} and the JVM's). */
    public Set<String> metrics() {
        Set<String> names = new TreeSet<>();
        for (String query : queries()) {
            Matcher m = METRIC.matcher(query);
            while (m.find()) {
                names.add(m.group());
            }
        }
        return names;
    }
}
