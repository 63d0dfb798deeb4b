package io.heliograph.webui.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Bearer tokens for scripts and orchestration tools, kept in {@code <data-dir>/webui/access-tokens}.
 * A token's secret is shown once, when it is created; only its SHA-256 is stored. A fast hash is
 * enough here, unlike for passwords: a secret is 256 random bits, there is nothing to guess.
 *
 * <p>A token lives until it is revoked or, if it was given a lifetime, until it expires: the web UI's
 * logins are such tokens, so a browser that never logs out leaves nothing behind for long. Expired
 * tokens are refused and forgotten.
 */
public final class AccessTokens {

    /** The prefix of every secret: lets secret scanners and people recognise a Heliograph token. */
    public static final String PREFIX = "hgt_";
    static final String FILE = "webui/access-tokens";
    private static final int SECRET_BYTES = 32;
    private static final int ID_BYTES = 6;

    /** The longest lifetime a token may be given: ten years. */
    public static final Duration MAX_LIFETIME = Duration.ofDays(3653);

    /** A token as listed: everything but the secret. {@code expires} is null for a token that never expires. */
    public record Token(String id, String name, Instant created, Instant expires) {

        boolean expiredAt(Instant now) {
            return expires != null && !now.isBefore(expires);
        }
    }

    /** A token just created, with its secret. */
    public record Created(Token token, String secret) {
    }

    private final Path file;
    private final SecureRandom random;
    private final Clock clock;
    /** By the SHA-256 (hex) of the secret. */
    private final Map<String, Token> byHash = new LinkedHashMap<>();

    private AccessTokens(Path file, SecureRandom random, Clock clock) {
        this.file = file;
        this.random = random;
        this.clock = clock;
    }

    public static AccessTokens inDataDirectory(Path dataDir, SecureRandom random) throws IOException {
        return inDataDirectory(dataDir, random, Clock.systemUTC());
    }

    static AccessTokens inDataDirectory(Path dataDir, SecureRandom random, Clock clock) throws IOException {
        AccessTokens tokens = new AccessTokens(dataDir.resolve(FILE), random, clock);
        tokens.load();
        return tokens;
    }

    private void load() throws IOException {
        if (!Files.exists(file)) {
            return;
        }
        int lineNumber = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            lineNumber++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] fields = line.split("\t", -1);
            try {
                // Files written before tokens could expire have four fields; "-" is a token that never expires.
                if (fields.length != 4 && fields.length != 5) {
                    throw new IllegalArgumentException("expected 5 tab-separated fields, found " + fields.length);
                }
                Instant expires = fields.length == 5 && !fields[4].equals("-") ? Instant.parse(fields[4]) : null;
                Token token = new Token(fields[0], URLDecoder.decode(fields[3], StandardCharsets.UTF_8),
                        Instant.parse(fields[1]), expires);
                byHash.put(fields[2], token);
            } catch (IllegalArgumentException | DateTimeParseException e) {
                throw new IOException(file + " line " + lineNumber + ": " + e.getMessage(), e);
            }
        }
    }

    /** A token that lives until it is revoked. */
    public Created create(String name) {
        return create(name, null);
    }

    /** A token that expires after {@code lifetime} (positive, at most {@link #MAX_LIFETIME}), or never if null. */
    public synchronized Created create(String name, Duration lifetime) {
        if (lifetime != null && (lifetime.isNegative() || lifetime.isZero() || lifetime.compareTo(MAX_LIFETIME) > 0)) {
            throw new IllegalArgumentException("a token's lifetime must be positive and at most " + MAX_LIFETIME.toDays()
                    + " days, was " + lifetime);
        }
        Instant now = clock.instant();
        forgetExpired(now);
        byte[] secretBytes = new byte[SECRET_BYTES];
        random.nextBytes(secretBytes);
        String secret = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secretBytes);
        byte[] idBytes = new byte[ID_BYTES];
        random.nextBytes(idBytes);
        Token token = new Token(HexFormat.of().formatHex(idBytes), name, now, lifetime == null ? null : now.plus(lifetime));
        byHash.put(sha256(secret), token);
        save();
        return new Created(token, secret);
    }

    public synchronized List<Token> list() {
        if (forgetExpired(clock.instant())) {
            save();
        }
        List<Token> tokens = new ArrayList<>(byHash.values());
        tokens.sort(Comparator.comparing(Token::created).thenComparing(Token::id));
        return tokens;
    }

    /** Revokes token {@code id}; false if there is no such token. */
    public synchronized boolean revoke(String id) {
        boolean removed = byHash.values().removeIf(t -> t.id().equals(id));
        if (removed) {
            save();
        }
        return removed;
    }

    /** The token whose secret {@code secret} is, if it exists and has not been revoked. */
    public synchronized Optional<Token> authenticate(String secret) {
        if (!secret.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String hash = sha256(secret);
        Token token = byHash.get(hash);
        if (token != null && token.expiredAt(clock.instant())) {
            byHash.remove(hash);
            save();
            return Optional.empty();
        }
        return Optional.ofNullable(token);
    }

    /** Drops the tokens expired at {@code now}; true if there were any (the caller saves). */
    private boolean forgetExpired(Instant now) {
        return byHash.values().removeIf(t -> t.expiredAt(now));
    }

    private void save() {
        StringBuilder text = new StringBuilder(
                "# id\tcreated\tsha256 of the secret\tname (URL-encoded)\texpires (- for never)\n");
        byHash.forEach((hash, t) -> text.append(t.id()).append('\t').append(t.created()).append('\t').append(hash)
                .append('\t').append(URLEncoder.encode(t.name(), StandardCharsets.UTF_8))
                .append('\t').append(t.expires() == null ? "-" : t.expires().toString()).append('\n'));
        try {
            SecretFiles.write(file, text.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the access tokens to " + file, e);
        }
    }

    private static String sha256(String secret) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
