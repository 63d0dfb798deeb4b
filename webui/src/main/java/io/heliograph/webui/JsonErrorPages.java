package io.heliograph.webui;

import java.io.IOException;
import java.nio.ByteBuffer;

import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Jetty's own error answers (a malformed request line, a header too large, a path outside every
 * servlet) as {@link ErrorBody} JSON instead of Jetty's HTML pages, so no client ever sees HTML or a
 * stack trace, whichever layer refused its request.
 */
final class JsonErrorPages {

    private JsonErrorPages() {
    }

    static ErrorBody body(int status, String message) {
        if (status >= 500) {
            return ErrorBody.of(status, null, "internal error; see the controller log");
        }
        return ErrorBody.of(status, null, message == null || message.isBlank() ? null : message);
    }

    /** For errors Jetty detects before a request reaches the servlet context. */
    static final class ServerLevel extends org.eclipse.jetty.server.handler.ErrorHandler {
        /** Every method, not only GET, POST and HEAD: a refused DELETE or PUT is told why too. */
        @Override
        public boolean errorPageForMethod(String method) {
            return true;
        }

        @Override
        protected void generateResponse(Request request, Response response, int code, String message,
                Throwable cause, Callback callback) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            response.write(true, ByteBuffer.wrap(body(code, message).toJson()), callback);
        }

        @Override
        public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
            fields.put(HttpHeader.CONTENT_TYPE, "application/json");
            return ByteBuffer.wrap(body(status, reason).toJson());
        }
    }

    /** For {@code sendError} inside the servlet context. */
    static final class ContextLevel extends org.eclipse.jetty.ee10.servlet.ErrorHandler {
        @Override
        public boolean errorPageForMethod(String method) {
            return true;
        }

        @Override
        protected void generateAcceptableResponse(ServletContextRequest baseRequest, HttpServletRequest request,
                HttpServletResponse response, int code, String message) throws IOException {
            byte[] json = body(code, message).toJson();
            response.setContentType("application/json");
            response.setContentLength(json.length);
            response.getOutputStream().write(json);
        }
    }
}
