package io.heliograph.cluster.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The instance id kept in {@code <data-dir>/instance-id} when none is given: read if the file holds
 * one, else a new UUID written there once, so an instance keeps its id across restarts. The web
 * bundle reads the same file by the same rule. Two bundles starting at once on a new data directory
 * agree: the file is created with a hard link (fails if it exists) and the loser reads the winner's id.
 */
final class InstanceIdFile {

    static final String FILE = "instance-id";

    private InstanceIdFile() {
    }

    static String readOrCreate(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE);
        String existing = read(file);
        if (existing != null && !existing.isEmpty()) {
            return existing;
        }
        if (existing != null) {
            // blank (an operator's empty file): make one, as for a new data directory. Only a file read
            // blank is deleted: one that appeared since it was read absent is another bundle's new id.
            Files.deleteIfExists(file);
        }
        Files.createDirectories(dataDir);
        String id = UUID.randomUUID().toString();
        Path temporary = Files.createTempFile(dataDir, FILE, ".tmp");
        try {
            Files.writeString(temporary, id + "\n", StandardCharsets.UTF_8);
            Files.createLink(file, temporary);
            return id;
        } catch (FileAlreadyExistsException e) {
            String winner = read(file);
            if (winner == null || winner.isEmpty()) {
                throw new IOException(file + " was created by someone else but holds no id", e);
            }
            return winner;
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** The file's content, stripped; null when there is no file (one read, so never absent and then there). */
    private static String read(Path file) throws IOException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException e) {
            return null;
        }
    }
}
