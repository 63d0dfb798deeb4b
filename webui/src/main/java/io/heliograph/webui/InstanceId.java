package io.heliograph.webui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * This controller instance's id: a UUID made on the first start of its data directory and kept in
 * {@code <data-dir>/instance-id}, so it survives restarts and tells instances of a cluster apart.
 */
final class InstanceId {

    static final String FILE = "instance-id";

    private InstanceId() {
    }

    static String inDataDirectory(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE);
        if (Files.exists(file)) {
            String id = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (!id.isEmpty()) {
                return id;
            }
        }
        String id = UUID.randomUUID().toString();
        Files.createDirectories(dataDir);
        Path temporary = dataDir.resolve(FILE + ".tmp");
        Files.writeString(temporary, id + "\n", StandardCharsets.UTF_8);
        Files.move(temporary, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return id;
    }
}
