package io.heliograph.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InstanceIdTest {

    @TempDir
    Path dataDir;

    @Test
    void aDataDirectoryGetsAUuidOnceAndKeepsIt() throws IOException {
        String first = InstanceId.resolve(Optional.empty(), dataDir);
        assertEquals(first, UUID.fromString(first).toString(), "a UUID");
        assertEquals(first, Files.readString(dataDir.resolve(InstanceId.FILE)).strip());
        assertEquals(first, InstanceId.resolve(Optional.empty(), dataDir), "the same id at the next start");
        assertEquals(List.of(dataDir.resolve(InstanceId.FILE)), files(), "no temporary file left behind");
    }

    @Test
    void anotherDataDirectoryIsAnotherInstance() throws IOException {
        Path other = Files.createDirectory(dataDir.resolve("other"));
        assertNotEquals(InstanceId.keptIn(dataDir), InstanceId.keptIn(other));
    }

    @Test
    void theCommandLinesIdWinsAndLeavesTheFileAlone() throws IOException {
        assertEquals("c1", InstanceId.resolve(Optional.of("c1"), dataDir));
        assertFalse(Files.exists(dataDir.resolve(InstanceId.FILE)), "no file made for a named instance");

        String kept = InstanceId.keptIn(dataDir);
        assertEquals("c2", InstanceId.resolve(Optional.of("c2"), dataDir));
        assertEquals(kept, Files.readString(dataDir.resolve(InstanceId.FILE)).strip(), "the kept id is unchanged");
        assertEquals(kept, InstanceId.resolve(Optional.empty(), dataDir), "and used again without --instance-id");
    }

    @Test
    void anIdWrittenByHandIsUsedAndAMangledOneIsRefusedNamingTheFile() throws IOException {
        Files.writeString(dataDir.resolve(InstanceId.FILE), "  east-1 \n");
        assertEquals("east-1", InstanceId.keptIn(dataDir));

        Files.writeString(dataDir.resolve(InstanceId.FILE), "east 1\n");
        IOException e = assertThrows(IOException.class, () -> InstanceId.keptIn(dataDir));
        assertTrue(e.getMessage().startsWith(dataDir.resolve(InstanceId.FILE) + " holds 'east 1', which is not an"
                + " instance id"), e.getMessage());
    }

    @Test
    void namesAreWhatAZooKeeperNodeCanBe() {
        for (String good : List.of("a", "c1", "east-1.rack_2", "-", "...", "x".repeat(64))) {
            assertTrue(InstanceId.isValid(good), good);
        }
        for (String bad : List.of("", ".", "..", "a/b", "a b", "é", "x".repeat(65), "a\n")) {
            assertFalse(InstanceId.isValid(bad), bad);
        }
    }

    private List<Path> files() throws IOException {
        try (Stream<Path> files = Files.list(dataDir)) {
            return files.toList();
        }
    }
}
