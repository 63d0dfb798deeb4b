package io.heliograph.webui.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiException;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;

/**
 * {@code /api/v1/auth/tokens}: create a bearer token (its secret is in the answer, and only there),
 * list tokens without secrets, revoke one.
 */
@RestController
@RequestMapping("/api/v1/auth/tokens")
public final class TokensResource implements RestResource {

    static final int MAX_NAME_LENGTH = 64;

    /**
     * What to create: a name that says who or what uses the token and, optionally, after how many
     * seconds it expires (without it, the token lives until it is revoked).
     */
    public record TokenRequest(String name, Long expiresInSeconds) {
    }

    /**
     * The created token; {@code token} is the secret to send as {@code Authorization: Bearer <token>};
     * {@code expires} is null for a token that never expires.
     */
    public record CreatedToken(String id, String name, Instant created, Instant expires, String token) {
    }

    private final AccessTokens tokens;

    public TokensResource(AccessTokens tokens) {
        this.tokens = tokens;
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    @ApiDescription("Creates a bearer token; its secret is in this answer and nowhere else")
    @OperationId("createToken")
    public CreatedToken create(@RequestBody TokenRequest request) {
        String name = request.name();
        if (name == null || name.isBlank()) {
            throw ApiException.badRequest("name", "a token needs a name saying who or what uses it");
        }
        if (name.length() > MAX_NAME_LENGTH) {
            throw ApiException.badRequest("name", "at most " + MAX_NAME_LENGTH + " characters, got " + name.length());
        }
        if (name.chars().anyMatch(Character::isISOControl)) {
            throw ApiException.badRequest("name", "control characters are not allowed");
        }
        Long seconds = request.expiresInSeconds();
        if (seconds != null && (seconds < 1 || seconds > AccessTokens.MAX_LIFETIME.toSeconds())) {
            throw ApiException.badRequest("expiresInSeconds", "must be between 1 and "
                    + AccessTokens.MAX_LIFETIME.toSeconds() + " (ten years), got " + seconds);
        }
        AccessTokens.Created created = tokens.create(name.strip(), seconds == null ? null : Duration.ofSeconds(seconds));
        AccessTokens.Token token = created.token();
        return new CreatedToken(token.id(), token.name(), token.created(), token.expires(), created.secret());
    }

    @GetMapping
    @ApiDescription("The bearer tokens, without their secrets")
    @OperationId("listTokens")
    public List<AccessTokens.Token> list() {
        return tokens.list();
    }

    @DeleteMapping("/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @ApiDescription("Revokes a bearer token at once")
    @OperationId("revokeToken")
    public void revoke(@PathVariable("id") String id) {
        if (!tokens.revoke(id)) {
            throw ApiException.notFound("id", "no access token with id '" + id + "'");
        }
    }
}
