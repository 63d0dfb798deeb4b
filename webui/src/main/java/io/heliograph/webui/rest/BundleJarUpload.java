package io.heliograph.webui.rest;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import io.heliograph.webui.api.ApiException;

/**
 * An uploaded bundle jar, checked before the framework sees it: a zip archive with a manifest that
 * names a bundle ({@code Bundle-SymbolicName}). What is wrong with an upload is the client's
 * mistake, answered 400 naming the field {@code file}.
 */
record BundleJarUpload(byte[] bytes, String symbolicName, String version) {

    static final String FIELD = "file";
    private static final int MAX_ENTRIES = 100_000;

    static BundleJarUpload of(byte[] bytes) {
        if (bytes == null || bytes.length == 0) {
            throw ApiException.badRequest(FIELD, "no jar uploaded: send it as the multipart field 'file', or as the "
                    + "request body with Content-Type application/java-archive");
        }
        if (bytes.length < 4 || bytes[0] != 'P' || bytes[1] != 'K' || bytes[2] != 3 || bytes[3] != 4) {
            throw ApiException.badRequest(FIELD, "not a jar: the upload (" + bytes.length
                    + " bytes) does not start like a zip archive");
        }
        Manifest manifest = manifest(bytes);
        if (manifest == null) {
            throw ApiException.badRequest(FIELD, "not an OSGi bundle: the jar has no " + JarFile.MANIFEST_NAME);
        }
        String symbolicName = manifest.getMainAttributes().getValue("Bundle-SymbolicName");
        if (symbolicName == null || symbolicName.isBlank()) {
            throw ApiException.badRequest(FIELD, "not an OSGi bundle: the jar's manifest has no Bundle-SymbolicName");
        }
        String version = manifest.getMainAttributes().getValue("Bundle-Version");
        return new BundleJarUpload(bytes, symbolicName.split(";")[0].strip(),
                version == null ? "0.0.0" : version.strip());
    }

    InputStream stream() {
        return new ByteArrayInputStream(bytes);
    }

    /** The manifest, wherever it is in the archive (JarInputStream only finds it among the first entries). */
    private static Manifest manifest(byte[] bytes) {
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(bytes))) {
            ZipEntry entry;
            int entries = 0;
            while ((entry = zip.getNextEntry()) != null) {
                if (++entries > MAX_ENTRIES) {
                    throw ApiException.badRequest(FIELD, "not a jar this controller installs: more than "
                            + MAX_ENTRIES + " entries");
                }
                if (entry.getName().equalsIgnoreCase(JarFile.MANIFEST_NAME)) {
                    return new Manifest(zip);
                }
            }
            if (entries == 0) {
                throw ApiException.badRequest(FIELD, "not a jar: the zip archive is empty or unreadable");
            }
            return null;
        } catch (IOException | IllegalArgumentException e) {
            throw ApiException.badRequest(FIELD, "not a readable jar: " + e.getMessage());
        }
    }
}
