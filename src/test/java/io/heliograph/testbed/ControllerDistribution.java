package io.heliograph.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A private copy of the built distribution (deploy/target/heliograph) for one test, so a test may
 * change its etc/ and hot/ without touching the build tree or other tests.
 */
public final class ControllerDistribution implements AutoCloseable {

    private final Path home;

    private ControllerDistribution(Path home) {
        this.home = home;
    }

    /** The built distribution, as the build tells through {@code heliograph.distribution}. */
    public static Path built() {
        Path dir = Path.of(System.getProperty("heliograph.distribution", "../../deploy/target/heliograph"))
                .toAbsolutePath().normalize();
        if (!Files.isRegularFile(dir.resolve("heliograph.jar"))) {
            throw new IllegalStateException("no built distribution at " + dir
                    + " (heliograph.jar missing): build it first, e.g. mvn -pl deploy -am package -DskipTests");
        }
        return dir;
    }

    /** Copies the built distribution into a fresh directory under {@code parent}. */
    public static ControllerDistribution copyOfBuilt(Path parent) {
        Path source = built();
        try {
            Files.createDirectories(parent);
            Path home = Files.createTempDirectory(parent, "heliograph-");
            try (Stream<Path> paths = Files.walk(source)) {
                for (Path from : paths.toList()) {
                    Path relative = source.relativize(from);
                    if (relative.startsWith("data")) {
                        continue;   // the build tree's own runtime state, if any
                    }
                    Path to = home.resolve(relative.toString());
                    if (Files.isDirectory(from)) {
                        Files.createDirectories(to);
                    } else {
                        Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
                    }
                }
            }
            return new ControllerDistribution(home);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the distribution " + source + " to " + parent, e);
        }
    }

    public Path home() {
        return home;
    }

    public Path jar() {
        return home.resolve("heliograph.jar");
    }

    public Path bundles() {
        return home.resolve("bundles");
    }

    public Path hot() {
        return home.resolve("hot");
    }

    /** The jars a started controller has installed: bundles/ (by the launcher) and hot/ (by FileInstall). */
    public List<Path> installedJars() {
        List<Path> jars = new ArrayList<>();
        for (Path dir : List.of(bundles(), hot())) {
            try (Stream<Path> files = Files.list(dir)) {
                files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().forEach(jars::add);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + dir, e);
            }
        }
        return jars;
    }

    /**
     * Takes app {@code artifactId} (e.g. "heliograph-forwarding") out of hot/ before the controller
     * starts, for a test of a deployment without it.
     */
    public void removeApp(String artifactId) {
        Path jar = hot().resolve(artifactId + ".jar");
        try {
            Files.delete(jar);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove app " + jar, e);
        }
    }

    public Path etc() {
        return home.resolve("etc");
    }

    /**
     * Sets {@code properties} in etc/{@code pid}.cfg, replacing lines of the same keys and keeping the
     * rest. Before the controller starts, they are part of its initial configuration; afterwards
     * FileInstall applies them live.
     */
    public void configure(String pid, Map<String, String> properties) {
        Path file = etc().resolve(pid + ".cfg");
        try {
            Map<String, String> remaining = new LinkedHashMap<>(properties);
            StringBuilder text = new StringBuilder();
            if (Files.exists(file)) {
                for (String line : Files.readAllLines(file)) {
                    String key = line.contains("=") && !line.stripLeading().startsWith("#")
                            ? line.substring(0, line.indexOf('=')).strip() : null;
                    if (key != null && remaining.containsKey(key)) {
                        text.append(key).append(" = ").append(remaining.remove(key)).append('\n');
                    } else {
                        text.append(line).append('\n');
                    }
                }
            }
            remaining.forEach((key, value) -> text.append(key).append(" = ").append(value).append('\n'));
            // written aside and moved, so FileInstall never reads half a file
            Path temp = Files.createTempFile(home, pid, ".tmp");
            Files.writeString(temp, text);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * Sets the log level of one logger (a class or package name) from the next start on: a logger of
     * etc/log4j2.xml. (A running controller changes levels through REST /api/v1/logging.)
     */
    public void setLogLevel(String logger, String level) {
        Path file = etc().resolve("log4j2.xml");
        try {
            String xml = Files.readString(file);
            int end = xml.lastIndexOf("</Loggers>");
            if (end < 0) {
                throw new IllegalStateException(file + " has no </Loggers>");
            }
            Files.writeString(file, xml.substring(0, end) + "  <Logger name=\"" + logger + "\" level=\"" + level
                    + "\"/>\n  " + xml.substring(end));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    @Override
    public void close() {
        try (Stream<Path> paths = Files.walk(home)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + home, e);
        }
    }
}
