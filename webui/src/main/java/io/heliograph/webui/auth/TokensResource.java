package io.heliograph.webui.auth;

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

import io.heliograph.webui.api.ApiException;
import io.heliograph.webui.api.RestResource;

/**
 * {@code /api/v1/auth/tokens}: create a bearer token (its secret is in the answer, and only there),
 * list tokens without secrets, revoke one.
 */
@RestController
@RequestMapping("/api/v1/auth/tokens")
public final class TokensResource implements RestResource {

    static final int MAX_NAME_LENGTH = 64;

    /** What to create: a name that says who or what uses the token. */
    public record TokenRequest(String name) {
    }

    /** The created token; {@code token} is the secret to send as {@code Authorization: Bearer <token>}. */
    public record CreatedToken(String id, String name, Instant created, String token) {
    }

    private final AccessTokens tokens;

    public TokensResource(AccessTokens tokens) {
        this.tokens = tokens;
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
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
        AccessTokens.Created created = tokens.create(name.strip());
        return new CreatedToken(created.token().id(), created.token().name(), created.token().created(),
                created.secret());
    }

    @GetMapping
    public List<AccessTokens.Token> list() {
        return tokens.list();
    }

    @DeleteMapping("/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void revoke(@PathVariable("id") String id) {
        if (!tokens.revoke(id)) {
            throw ApiException.notFound("id", "no access token with id '" + id + "'");
        }
    }
}
