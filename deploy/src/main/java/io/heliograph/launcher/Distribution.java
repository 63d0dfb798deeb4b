package io.heliograph.launcher;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The folders of an unpacked distribution: {@code heliograph.jar} sits in its home, next to
 * {@code bundles/} (started at launch), {@code hot/} (watched: hot-deployed apps), {@code etc/}
 * (configuration) and {@code data/} (the default data directory).
 */
public record Distribution(Path home) {

    /** The home given by {@code -Dheliograph.home}, else the folder holding the launcher jar. */
    public static Distribution locate() {
        String configured = System.getProperty("heliograph.home");
        if (configured != null && !configured.isBlank()) {
            return new Distribution(Path.of(configured).toAbsolutePath().normalize());
        }
        try {
            Path jar = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return new Distribution(jar.toAbsolutePath().getParent().normalize());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("cannot tell where the distribution is; set -Dheliograph.home", e);
        }
    }

    public Path bundles() {
        return home.resolve("bundles");
    }

    public Path hot() {
        return home.resolve("hot");
    }

    public Path etc() {
        return home.resolve("etc");
    }

    /** The logging configuration (Log4j 2), for the controller and the ZooKeeper server. */
    public Path logConfiguration() {
        return etc().resolve("log4j2.xml");
    }

    public Path defaultDataDir() {
        return home.resolve("data");
    }

    /** The jars of bundles/, in name order so that runs are repeatable. */
    public List<Path> bundleJars() throws IOException {
        return jarsIn(bundles());
    }

    /** The configuration files FileInstall loads from etc/. */
    public List<Path> configFiles() throws IOException {
        if (!Files.isDirectory(etc())) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(etc())) {
            return files.filter(f -> f.getFileName().toString().endsWith(".cfg")).sorted().toList();
        }
    }

    private static List<Path> jarsIn(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException("no " + dir + " folder: is this an assembled distribution?"
                    + " Build it with deploy/heliograph build");
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().toList();
        }
    }
}
