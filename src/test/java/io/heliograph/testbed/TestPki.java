package io.heliograph.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Certificates made with openssl for one test: a certificate authority and the PEM certificates and
 * PKCS#8 keys it signs, for the controller (server) and for switches (clients).
 */
public final class TestPki {

    private static final Duration OPENSSL = Duration.ofSeconds(60);

    private final Path dir;
    private final String name;

    private TestPki(Path dir, String name) {
        this.dir = dir;
        this.name = name;
    }

    /** A new self-signed CA called {@code name}, its files in {@code dir}. */
    public static TestPki createAuthority(Path dir, String name) {
        TestPki pki = new TestPki(dir, name);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                "-keyout", pki.caKey().toString(), "-out", pki.caCertificate().toString(),
                "-subj", "/O=Heliograph tests/CN=" + name,
                "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign");
        return pki;
    }

    public Path caCertificate() {
        return dir.resolve(name + "-ca.crt");
    }

    private Path caKey() {
        return dir.resolve(name + "-ca.key");
    }

    /**
     * Issues a certificate for {@code subject} (also its IP subject alternative name when it is an
     * address), usable for both TLS server and client authentication.
     */
    public Issued issue(String subject) {
        String base = name + "-" + subject.replaceAll("[^A-Za-z0-9.-]", "_");
        Path rawKey = dir.resolve(base + ".key.tmp");
        Path key = dir.resolve(base + ".key");
        Path csr = dir.resolve(base + ".csr");
        Path cert = dir.resolve(base + ".crt");
        Path ext = dir.resolve(base + ".ext");
        try {
            String san = subject.matches("[0-9.]+") ? "IP:" + subject : "DNS:" + subject;
            Files.writeString(ext, String.join("\n",
                    "basicConstraints=CA:FALSE",
                    "keyUsage=critical,digitalSignature,keyEncipherment",
                    "extendedKeyUsage=serverAuth,clientAuth",
                    "subjectAltName=" + san, ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", rawKey.toString(), "-out", csr.toString(),
                "-subj", "/O=Heliograph tests/CN=" + subject);
        // Netty and OVS both read PKCS#8 PEM ("BEGIN PRIVATE KEY")
        openssl("pkcs8", "-topk8", "-nocrypt", "-in", rawKey.toString(), "-out", key.toString());
        openssl("x509", "-req", "-in", csr.toString(), "-CA", caCertificate().toString(), "-CAkey", caKey().toString(),
                "-CAcreateserial", "-days", "2", "-extfile", ext.toString(), "-out", cert.toString());
        return new Issued(cert, key);
    }

    /**
     * The certificate and key of {@code issued}, with this CA's certificate as its chain, in a PKCS#12
     * keystore at {@code target} protected by {@code password}: what a Java server (Jetty) is configured with.
     */
    public Path pkcs12(Issued issued, Path target, String password) {
        openssl("pkcs12", "-export", "-in", issued.certificate().toString(), "-inkey", issued.key().toString(),
                "-certfile", caCertificate().toString(), "-name", "server", "-out", target.toString(),
                "-passout", "pass:" + password);
        return target;
    }

    /** A TLS client context that trusts exactly this CA. */
    public javax.net.ssl.SSLContext trustingClient() {
        try (java.io.InputStream in = Files.newInputStream(caCertificate())) {
            java.security.KeyStore trusted = java.security.KeyStore.getInstance("PKCS12");
            trusted.load(null, null);
            trusted.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509")
                    .generateCertificate(in));
            javax.net.ssl.TrustManagerFactory trust = javax.net.ssl.TrustManagerFactory
                    .getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust " + caCertificate(), e);
        }
    }

    private static void openssl(String... args) {
        String[] argv = new String[args.length + 1];
        argv[0] = "openssl";
        System.arraycopy(args, 0, argv, 1, args.length);
        Command.of(argv).timeout(OPENSSL).check();
    }

    /** A certificate (PEM) and its private key (PKCS#8 PEM). */
    public record Issued(Path certificate, Path key) {
    }
}
