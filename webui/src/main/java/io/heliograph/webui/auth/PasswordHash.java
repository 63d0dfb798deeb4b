package io.heliograph.webui.auth;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A password stored as PBKDF2-HMAC-SHA256 with a random salt, in one line:
 * {@code pbkdf2-sha256$<iterations>$<salt base64>$<hash base64>}. The iteration count is in the line,
 * so raising it later keeps stored passwords valid.
 */
record PasswordHash(int iterations, byte[] salt, byte[] hash) {

    static final String SCHEME = "pbkdf2-sha256";
    static final int ITERATIONS = 210_000;
    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;

    static PasswordHash of(char[] password, SecureRandom random) {
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        return new PasswordHash(ITERATIONS, salt, derive(password, salt, ITERATIONS));
    }

    static PasswordHash parse(String line) {
        String[] parts = line.strip().split("\\$");
        if (parts.length != 4 || !SCHEME.equals(parts[0])) {
            throw new IllegalArgumentException("not a " + SCHEME + " password hash: expected "
                    + SCHEME + "$<iterations>$<salt>$<hash>");
        }
        try {
            Base64.Decoder base64 = Base64.getDecoder();
            return new PasswordHash(Integer.parseInt(parts[1]), base64.decode(parts[2]), base64.decode(parts[3]));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unreadable " + SCHEME + " password hash: " + e.getMessage(), e);
        }
    }

    String format() {
        Base64.Encoder base64 = Base64.getEncoder();
        return SCHEME + "$" + iterations + "$" + base64.encodeToString(salt) + "$" + base64.encodeToString(hash);
    }

    boolean matches(char[] password) {
        return MessageDigest.isEqual(hash, derive(password, salt, iterations));
    }

    private static byte[] derive(char[] password, byte[] salt, int iterations) {
        PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no PBKDF2WithHmacSHA256", e);
        } finally {
            spec.clearPassword();
        }
    }
}
