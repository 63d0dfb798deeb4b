package io.heliograph.webui.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The administrator's password. There is no built-in default: on the first start of a data directory
 * a random password is generated, its PBKDF2 hash kept in {@code <data-dir>/webui/admin-password},
 * and the clear text written once to {@code <data-dir>/initial-credentials} (mode 600) for the
 * operator to pick up; the log says where, never what.
 *
 * <p>PBKDF2 is slow on purpose, too slow to run on every request of a script using HTTP Basic: a
 * successful check is remembered as a SHA-256 of the credentials, in memory only.
 */
public final class AdminCredentials {

    public static final String USER = "admin";
    public static final String INITIAL_CREDENTIALS = "initial-credentials";
    static final String HASH_FILE = "webui/admin-password";

    private static final Logger LOG = LoggerFactory.getLogger(AdminCredentials.class);
    private static final int PASSWORD_BYTES = 18;   // 24 characters of base64url, 144 bits
    private static final int MAX_REMEMBERED = 1024;

    private final PasswordHash hash;
    private final Set<String> verified = ConcurrentHashMap.newKeySet();

    private AdminCredentials(PasswordHash hash) {
        this.hash = hash;
    }

    /** The administrator of {@code dataDir}, created with a fresh password if it has none yet. */
    public static AdminCredentials inDataDirectory(Path dataDir, SecureRandom random) throws IOException {
        Path hashFile = dataDir.resolve(HASH_FILE);
        if (Files.exists(hashFile)) {
            try {
                return new AdminCredentials(PasswordHash.parse(Files.readString(hashFile, StandardCharsets.UTF_8)));
            } catch (IllegalArgumentException e) {
                throw new IOException(hashFile + ": " + e.getMessage()
                        + " (delete the file to generate a new admin password)", e);
            }
        }
        byte[] secret = new byte[PASSWORD_BYTES];
        random.nextBytes(secret);
        String password = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        PasswordHash created = PasswordHash.of(password.toCharArray(), random);
        SecretFiles.write(hashFile, created.format() + "\n");
        Path initial = dataDir.resolve(INITIAL_CREDENTIALS);
        SecretFiles.write(initial, "# The generated administrator of this controller's REST API and web UI.\n"
                + "# Shown once: keep it elsewhere and delete this file. Only its hash is kept by the controller.\n"
                + "username=" + USER + "\npassword=" + password + "\n");
        LOG.warn("generated the administrator password of the REST API and web UI; user '{}', password in {}"
                + " (readable by this user only)", USER, initial.toAbsolutePath());
        return new AdminCredentials(created);
    }

    /** Whether {@code user} and {@code password} are the administrator's. */
    public boolean verify(String user, String password) {
        if (!USER.equals(user)) {
            return false;
        }
        String fingerprint = fingerprint(user, password);
        if (verified.contains(fingerprint)) {
            return true;
        }
        if (!hash.matches(password.toCharArray())) {
            return false;
        }
        if (verified.size() >= MAX_REMEMBERED) {
            verified.clear();
        }
        verified.add(fingerprint);
        return true;
    }

    private static String fingerprint(String user, String password) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha.digest((user + '\0' + password).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
