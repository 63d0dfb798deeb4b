package io.heliograph.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where system tests keep what a failure needs explaining (controller logs, OVS logs, snoops):
 * {@code heliograph.systemtest.logs} as set by the build, target/system-test-logs otherwise.
 */
public final class ArtifactDirectory {

    /** Labels whose directory this JVM has already emptied: later callers share it. */
    private static final java.util.Set<String> PREPARED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private ArtifactDirectory() {
    }

    /** The directory for {@code label}, emptied of what an earlier run (not this one) left there. */
    public static synchronized Path forTest(String label) {
        Path root = Path.of(System.getProperty("heliograph.systemtest.logs", "target/system-test-logs"));
        Path dir = root.resolve(label.replaceAll("[^A-Za-z0-9._-]", "_"));
        try {
            if (PREPARED.add(label) && Files.isDirectory(dir)) {
                try (var old = Files.walk(dir)) {
                    for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        if (!p.equals(dir)) {
                            Files.delete(p);
                        }
                    }
                }
            }
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create artifact directory " + dir, e);
        }
    }
}
