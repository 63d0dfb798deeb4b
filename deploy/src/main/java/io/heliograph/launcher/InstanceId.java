package io.heliograph.launcher;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The name of this controller instance in a cluster ({@code heliograph.instance.id}): the one given
 * with {@code --instance-id}, else a UUID made on the first start of the data directory and kept in
 * {@code <data-dir>/instance-id}, so it survives restarts and tells instances of a cluster apart.
 */
final class InstanceId {

    static final String FILE = "instance-id";
    static final int MAX_LENGTH = 64;
    /** It names a ZooKeeper node (/heliograph/instances/NAME): no '/', no spaces, no "." or ".." alone. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_LENGTH + "}");

    static final String RULE = "1-" + MAX_LENGTH + " letters, digits, '.', '_' or '-' (not '.' or '..' alone)";

    private InstanceId() {
    }

    static boolean isValid(String name) {
        return NAME.matcher(name).matches() && !name.equals(".") && !name.equals("..");
    }

    /** The id given on the command line, or the one kept in {@code dataDir} (made there the first time). */
    static String resolve(Optional<String> given, Path dataDir) throws IOException {
        return given.isPresent() ? given.get() : keptIn(dataDir);
    }

    /** The id kept in {@code dataDir}; a fresh UUID is written there first if the file does not exist. */
    static String keptIn(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE);
        if (Files.exists(file)) {
            String id = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (!isValid(id)) {
                throw new IOException(file + " holds '" + id + "', which is not an instance id (" + RULE
                        + "): correct it, or delete it to get a new one");
            }
            return id;
        }
        String id = UUID.randomUUID().toString();
        // Written aside and moved: a crash leaves either no file or a whole one, never a torn id.
        Path temporary = Files.createTempFile(dataDir, FILE, ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                channel.write(ByteBuffer.wrap((id + "\n").getBytes(StandardCharsets.UTF_8)));
                channel.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
        return id;
    }
}
