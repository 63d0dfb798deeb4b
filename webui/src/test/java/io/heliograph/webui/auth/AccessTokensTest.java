package io.heliograph.webui.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.heliograph.core.testing.ManualClock;

/** Tokens with a lifetime expire, are refused and forgotten; tokens without one live until revoked. */
class AccessTokensTest {

    @TempDir
    Path dataDir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-22T10:00:00Z"));

    @Test
    void aTokenWithALifetimeWorksUntilItExpiresAndIsThenForgotten() throws IOException {
        AccessTokens tokens = AccessTokens.inDataDirectory(dataDir, new SecureRandom(), clock);
        AccessTokens.Created login = tokens.create("web UI", Duration.ofHours(12));
        AccessTokens.Created script = tokens.create("orchestrator");
        assertEquals(clock.instant().plus(Duration.ofHours(12)), login.token().expires());
        assertNull(script.token().expires(), "no lifetime, no expiry");

        clock.advance(Duration.ofHours(12).minusSeconds(1));
        assertEquals(login.token(), tokens.authenticate(login.secret()).orElseThrow());

        clock.advance(Duration.ofSeconds(1));
        assertTrue(tokens.authenticate(login.secret()).isEmpty(), "refused once it expired");
        assertEquals(List.of(script.token()), tokens.list(), "the expired token is no longer listed");
        assertEquals(script.token(), tokens.authenticate(script.secret()).orElseThrow());
        assertTrue(!Files.readString(dataDir.resolve(AccessTokens.FILE)).contains(login.token().id()),
                "the expired token is gone from the file");
    }

    @Test
    void expiredTokensAreForgottenWhenTheListIsReadOrATokenIsCreated() throws IOException {
        AccessTokens tokens = AccessTokens.inDataDirectory(dataDir, new SecureRandom(), clock);
        tokens.create("forgotten browser 1", Duration.ofMinutes(1));
        tokens.create("forgotten browser 2", Duration.ofMinutes(1));
        clock.advance(Duration.ofMinutes(2));
        AccessTokens.Created fresh = tokens.create("fresh", Duration.ofMinutes(1));
        assertEquals(List.of(fresh.token()), tokens.list());
        String file = Files.readString(dataDir.resolve(AccessTokens.FILE));
        assertTrue(!file.contains("forgotten"), "the file keeps only the live token: " + file);
    }

    @Test
    void aRestartKeepsEachTokensExpiry() throws IOException {
        AccessTokens first = AccessTokens.inDataDirectory(dataDir, new SecureRandom(), clock);
        AccessTokens.Created login = first.create("web UI", Duration.ofMinutes(30));
        AccessTokens.Created script = first.create("ci");

        AccessTokens again = AccessTokens.inDataDirectory(dataDir, new SecureRandom(), clock);
        assertEquals(java.util.Set.of(login.token(), script.token()), java.util.Set.copyOf(again.list()));
        clock.advance(Duration.ofMinutes(30));
        assertTrue(again.authenticate(login.secret()).isEmpty());
        assertTrue(again.authenticate(script.secret()).isPresent());
    }

    @Test
    void aFileWrittenBeforeTokensCouldExpireStillLoadsWithTokensThatNeverExpire() throws IOException {
        AccessTokens tokens = AccessTokens.inDataDirectory(dataDir, new SecureRandom(), clock);
        AccessTokens.Created created = tokens.create("old script");
        Path file = dataDir.resolve(AccessTokens.FILE);
        // the format before expiry: four fields, no expiry column
        List<String> oldFormat = Files.readAllLines(file).stream()
                .map(line -> line.startsWith("#") ? line : line.substring(0, line.lastIndexOf('\t')))
                .toList();
        Files.write(file, oldFormat);

        AccessTokens loaded = AccessTokens.inDataDirectory(dataDir, new SecureRandom(), clock);
        clock.advance(AccessTokens.MAX_LIFETIME.multipliedBy(2));
        assertEquals(created.token(), loaded.authenticate(created.secret()).orElseThrow());
    }

    @Test
    void aLifetimeMustBePositiveAndAtMostTenYears() throws IOException {
        AccessTokens tokens = AccessTokens.inDataDirectory(dataDir, new SecureRandom(), clock);
        for (Duration bad : List.of(Duration.ZERO, Duration.ofSeconds(-1), AccessTokens.MAX_LIFETIME.plusSeconds(1))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tokens.create("x", bad));
            assertTrue(e.getMessage().contains("lifetime"), e.getMessage());
        }
        assertEquals(List.of(), tokens.list(), "nothing was created");
    }
}
