package io.heliograph.webui;

import java.nio.file.Path;
import java.util.Optional;

/**
 * How the HTTP server listens and what it accepts, from {@code etc/io.heliograph.webui.cfg}.
 *
 * @param httpsPort     -1 for no HTTPS listener
 * @param keystore      PKCS12 (or {@code keystoreType}) file with the server's key and certificate
 * @param maxBodyBytes  largest request body (JSON) accepted; bigger is 413
 * @param maxUploadBytes largest upload (multipart, jar) accepted; bigger is 413
 * @param authentication false only where the network itself keeps everyone else out
 */
public record HttpSettings(String address, int port, int httpsPort, Optional<Path> keystore, String keystorePassword,
                           String keystoreType, long maxBodyBytes, long maxUploadBytes, boolean authentication) {

    public static final long DEFAULT_MAX_BODY_BYTES = 1L << 20;
    public static final long DEFAULT_MAX_UPLOAD_BYTES = 64L << 20;

    public HttpSettings {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0-65535, got " + port);
        }
        if (httpsPort < -1 || httpsPort > 65535) {
            throw new IllegalArgumentException("https.port must be -1 (off) or 0-65535, got " + httpsPort);
        }
        if (httpsPort >= 0 && keystore.isEmpty()) {
            throw new IllegalArgumentException("https.port is " + httpsPort + " but https.keystore names no keystore");
        }
        if (maxBodyBytes <= 0 || maxUploadBytes <= 0) {
            throw new IllegalArgumentException("request size limits must be positive, got max.body.bytes="
                    + maxBodyBytes + ", max.upload.bytes=" + maxUploadBytes);
        }
    }

    /** Plain HTTP on {@code address:port}, the default limits, authentication on. */
    public static HttpSettings http(String address, int port) {
        return new HttpSettings(address, port, -1, Optional.empty(), "", "PKCS12", DEFAULT_MAX_BODY_BYTES,
                DEFAULT_MAX_UPLOAD_BYTES, true);
    }
}
