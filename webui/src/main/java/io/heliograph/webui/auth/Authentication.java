package io.heliograph.webui.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.heliograph.webui.ErrorBody;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Every request but the health check and the web UI's static shell must authenticate: HTTP Basic as
 * the administrator, or a bearer token. Anything else is 401 with a challenge and a JSON body. A
 * request marked {@code X-Requested-With} (the web UI's) gets only the Bearer challenge, so the browser
 * does not open its own login dialog over the UI's.
 */
public final class Authentication implements Filter {

    /** Request attribute naming who made the request: {@code admin} or {@code token:<id>}. */
    public static final String PRINCIPAL = "io.heliograph.webui.principal";
    /**
     * The request attribute holding a {@code BooleanSupplier} that says whether the request's credentials
     * are still valid: a long-lived response (an event stream) asks it again while it runs, so a revoked
     * or expired token stops receiving.
     */
    public static final String STILL_VALID = "io.heliograph.webui.credentialsStillValid";
    static final String REALM = "Heliograph";

    private final Supplier<AdminCredentials> admin;
    private final AccessTokens tokens;

    /** {@code admin} may still be being made (a first start hashes the new password meanwhile). */
    public Authentication(Supplier<AdminCredentials> admin, AccessTokens tokens) {
        this.admin = admin;
        this.tokens = tokens;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        if (isPublic(request)) {
            chain.doFilter(request, response);
            return;
        }
        String authorization = request.getHeader("Authorization");
        Optional<String> principal = authorization == null ? Optional.empty() : principal(authorization.strip());
        if (principal.isPresent()) {
            request.setAttribute(PRINCIPAL, principal.get());
            String credentials = authorization.strip();
            request.setAttribute(STILL_VALID, (BooleanSupplier) () -> principal(credentials).isPresent());
            chain.doFilter(request, response);
            return;
        }
        if (request.getHeader("X-Requested-With") == null) {
            response.addHeader("WWW-Authenticate", "Basic realm=\"" + REALM + "\", charset=\"UTF-8\"");
        }
        response.addHeader("WWW-Authenticate", "Bearer realm=\"" + REALM + "\"");
        ErrorBody.of(401, "Authorization", authorization == null
                ? "authentication required: HTTP Basic as '" + AdminCredentials.USER + "' (the first start writes the"
                        + " password to <data-dir>/" + AdminCredentials.INITIAL_CREDENTIALS + ") or a bearer token"
                : "the credentials are not valid").writeTo(response);
    }

    /** Paths anyone may read: the health check (for orchestration) and the UI shell (to show its login). */
    static boolean isPublic(HttpServletRequest request) {
        String method = request.getMethod();
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            return false;
        }
        String path = request.getRequestURI();
        return path.equals("/api/v1/health") || path.equals("/") || path.equals("/index.html")
                || path.equals("/favicon.ico") || path.startsWith("/ui/") || path.startsWith("/webjars/");
    }

    private Optional<String> principal(String authorization) {
        int space = authorization.indexOf(' ');
        if (space < 0) {
            return Optional.empty();
        }
        String scheme = authorization.substring(0, space);
        String value = authorization.substring(space + 1).strip();
        if (scheme.equalsIgnoreCase("Bearer")) {
            return tokens.authenticate(value).map(t -> "token:" + t.id());
        }
        if (scheme.equalsIgnoreCase("Basic")) {
            String decoded;
            try {
                decoded = new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
            int colon = decoded.indexOf(':');
            if (colon < 0) {
                return Optional.empty();
            }
            String user = decoded.substring(0, colon);
            return admin.get().verify(user, decoded.substring(colon + 1)) ? Optional.of(user) : Optional.empty();
        }
        return Optional.empty();
    }
}
