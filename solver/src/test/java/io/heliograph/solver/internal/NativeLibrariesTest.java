package io.heliograph.solver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeLibrariesTest {

    @TempDir
    Path temp;

    @Test
    void anotherPlatformIsRefusedByName() {
        NativeLibraries.checkPlatform("Linux", "amd64");
        UnsupportedOperationException mac = assertThrows(UnsupportedOperationException.class,
                () -> NativeLibraries.checkPlatform("Mac OS X", "aarch64"));
        assertTrue(mac.getMessage().contains("linux-x86-64") && mac.getMessage().contains("Mac OS X aarch64"),
                mac.getMessage());
        assertThrows(UnsupportedOperationException.class, () -> NativeLibraries.checkPlatform("Linux", "aarch64"));
    }

    @Test
    void extractsTheWholeNativesFolderWithTheJniLibrary() throws IOException {
        Path out = Files.createDirectory(temp.resolve("out"));
        List<Path> files = NativeLibraries.extract(TestNatives.jar(), out);
        assertTrue(Files.size(out.resolve(NativeLibraries.JNI_LIBRARY)) > 0);
        assertTrue(files.contains(out.resolve("libortools.so.9")), "the library the JNI one needs: " + files);
        try (var listed = Files.list(out)) {
            assertEquals(files.size(), listed.count());
        }
    }

    @Test
    void aJarWithoutTheJniLibraryIsAClearError() throws IOException {
        Path jar = temp.resolve("empty-natives.jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            out.putNextEntry(new JarEntry(NativeLibraries.FOLDER + "libother.so"));
            out.write(new byte[] {1, 2, 3});
            out.closeEntry();
        }
        Path out = Files.createDirectory(temp.resolve("out"));
        IOException missing = assertThrows(IOException.class, () -> NativeLibraries.extract(jar.toUri().toURL(), out));
        assertTrue(missing.getMessage().contains(NativeLibraries.JNI_LIBRARY), missing.getMessage());
        IOException none = assertThrows(IOException.class, () -> NativeLibraries.extract(null, out));
        assertTrue(none.getMessage().contains("natives jar"), none.getMessage());
    }
}
