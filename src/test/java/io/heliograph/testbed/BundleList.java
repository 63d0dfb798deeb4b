package io.heliograph.testbed;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The rows of the Gogo {@code lb} command: "   25|Active     |    1|Heliograph learning switch (0.1.0.x)|0.1.0.x". */
public record BundleList(List<Row> rows) {

    private static final Pattern ROW = Pattern.compile(
            "^\\s*(\\d+)\\|(\\w+)\\s*\\|\\s*\\d+\\|(.*)\\|([^|\\s]+)\\s*$", Pattern.MULTILINE);

    public static BundleList parse(String output) {
        List<Row> rows = new ArrayList<>();
        Matcher m = ROW.matcher(output);
        while (m.find()) {
            rows.add(new Row(Long.parseLong(m.group(1)), m.group(2), m.group(3).strip(), m.group(4)));
        }
        return new BundleList(rows);
    }

    /** The one bundle whose name contains {@code namePart}. */
    public Optional<Row> find(String namePart) {
        List<Row> matching = rows.stream().filter(r -> r.name().contains(namePart)).toList();
        if (matching.size() > 1) {
            throw new IllegalStateException("several bundles named like '" + namePart + "': " + matching);
        }
        return matching.stream().findFirst();
    }

    public record Row(long id, String state, String name, String version) {
    }
}
