package io.heliograph.webui;

import java.io.IOException;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Refuses with 400 a request path with a '%' not followed by two hex digits ({@code /switches/%3`}).
 * Jetty lets such a path through, and Spring, which decodes the path before any resource or error
 * handler is chosen, failed on it with a 500 and a stack trace in the log.
 *
 * <p>Also a path with a ';': Spring drops what follows a ';' in a segment (path parameters, which no
 * path of this API uses), so {@code POST /api/v1/bundles/9;x/stop} stopped bundle 9, a request that
 * names something it does not say (found by RestFuzzIT). An encoded ';' ({@code %3B}) stays part of
 * the value and is refused by whatever reads it.
 */
final class PathEncodingCheck implements Filter {

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        String path = ((HttpServletRequest) req).getRequestURI();
        int bad = badEscape(path);
        if (bad >= 0) {
            ErrorBody.of(400, null, "the request path has an invalid percent-encoding at '"
                    + path.substring(bad, Math.min(path.length(), bad + 3)) + "': '%' must be followed by two hex digits")
                    .writeTo((HttpServletResponse) res);
            return;
        }
        int semicolon = path.indexOf(';');
        if (semicolon >= 0) {
            ErrorBody.of(400, null, "the request path has a ';' at character " + (semicolon + 1)
                    + ": path parameters are not used by this API (send an encoded ';' as %3B)")
                    .writeTo((HttpServletResponse) res);
            return;
        }
        chain.doFilter(req, res);
    }

    /** The index of the first '%' without two hex digits after it, or -1. */
    static int badEscape(String path) {
        for (int i = path.indexOf('%'); i >= 0; i = path.indexOf('%', i + 1)) {
            if (i + 2 >= path.length() || Character.digit(path.charAt(i + 1), 16) < 0
                    || Character.digit(path.charAt(i + 2), 16) < 0) {
                return i;
            }
        }
        return -1;
    }
}
