package io.heliograph.launcher;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One controller per data directory: a second one would wipe the first one's framework storage
 * (osgi/ is cleaned at start) under its feet. The same holds for a ZooKeeper server's data directory,
 * where two servers would write one transaction log. The lock is the operating system's, so it goes
 * away with the process however it ends; the file keeps the holder's pid for the error message.
 */
public final class DataDirectoryLock implements AutoCloseable {

    public static final String FILE = "heliograph.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock, or throws an IOException that says which process holds it. */
    public static DataDirectoryLock acquire(Path dataDir) throws IOException {
        return acquire(dataDir, "controller");
    }

    /** As {@link #acquire(Path)}, for {@code holder} ("controller", "ZooKeeper server") as the error names it. */
    public static DataDirectoryLock acquire(Path dataDir, String holder) throws IOException {
        Path file = dataDir.resolve(FILE);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            String pid = Files.readString(file, StandardCharsets.UTF_8).trim();
            throw new IOException(dataDir + " is in use by another " + holder
                    + (pid.isEmpty() ? "" : " (pid " + pid + ")") + "; give each one its own --data-dir");
        }
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)));
        channel.force(false);
        return new DataDirectoryLock(channel, lock);
    }

    @Override
    public void close() throws IOException {
        lock.release();
        channel.close();
    }
}
