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

    private ArtifactDirectory() {
    }

    public static Path forTest(String label) {
        Path root = Path.of(System.getProperty("heliograph.systemtest.logs", "target/system-test-logs"));
        Path dir = root.resolve(label.replaceAll("[^A-Za-z0-9._-]", "_"));
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create artifact directory " + dir, e);
        }
    }
}
