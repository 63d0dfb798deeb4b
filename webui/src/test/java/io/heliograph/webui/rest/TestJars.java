package io.heliograph.webui.rest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** Jars built in memory for the bundle tests: bundles with the headers a test needs, and broken ones. */
final class TestJars {

    private TestJars() {
    }

    /** A bundle with no code: enough to install, resolve, start and stop. */
    static byte[] bundle(String symbolicName, String version, Map<String, String> extraHeaders) {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        main.putValue("Bundle-SymbolicName", symbolicName);
        main.putValue("Bundle-Version", version);
        main.putValue("Bundle-Name", "test bundle " + symbolicName);
        extraHeaders.forEach(main::putValue);
        return jar(manifest);
    }

    static byte[] bundle(String symbolicName, String version) {
        return bundle(symbolicName, version, Map.of());
    }

    /** A jar whose manifest has these main attributes only. */
    static byte[] jarWithManifest(Map<String, String> headers) {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        headers.forEach(manifest.getMainAttributes()::putValue);
        return jar(manifest);
    }

    /** A zip with one text file and no manifest. */
    static byte[] zipWithoutManifest() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            zip.putNextEntry(new ZipEntry("readme.txt"));
            zip.write("not a bundle".getBytes());
            zip.closeEntry();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static byte[] jar(Manifest manifest) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, manifest)) {
            jar.putNextEntry(new ZipEntry("io/heliograph/test/readme.txt"));
            jar.write("a test bundle".getBytes());
            jar.closeEntry();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
