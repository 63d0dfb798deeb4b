package io.heliograph.webui;

import java.io.IOException;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Refuses request bodies above the configured size with 413 before they are read: by Content-Length
 * when the client sends one, and while reading when the body is chunked. Uploads (multipart, jars) have
 * their own, larger limit; every other body (JSON) the smaller one.
 */
final class RequestSizeLimit implements Filter {

    /** Thrown while reading a chunked body that grows past the limit. */
    static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge(long limit) {
            super("the request body is larger than the limit of " + limit + " bytes");
        }
    }

    /** Largest refused body still read to its end before answering 413. */
    static final long DRAIN_LIMIT = 16L << 20;

    private final long maxBodyBytes;
    private final long maxUploadBytes;

    RequestSizeLimit(long maxBodyBytes, long maxUploadBytes) {
        this.maxBodyBytes = maxBodyBytes;
        this.maxUploadBytes = maxUploadBytes;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        long limit = isUpload(request) ? maxUploadBytes : maxBodyBytes;
        long declared = request.getContentLengthLong();
        if (declared > limit) {
            HttpServletResponse response = (HttpServletResponse) res;
            if (declared <= DRAIN_LIMIT) {
                // Read what the client is sending anyway, so that it is done writing and reads the 413;
                // cut short, many clients see only a broken pipe. Beyond this the connection just closes.
                request.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
            }
            response.setHeader("Connection", "close");
            ErrorBody.of(413, null, "the request body of " + declared + " bytes is larger than the limit of "
                    + limit + " bytes").writeTo(response);
            return;
        }
        HttpServletRequest bounded = declared >= 0 ? request : new Limited(request, limit);
        chain.doFilter(bounded, res);
        readRest(bounded, res);
    }

    /**
     * Reads what the resource left of the body (one that refused the request before reading it, one
     * that needs no body). Jetty closes a connection whose request body is still arriving when the
     * exchange ends, after the answer is committed and so without saying so; the client's next request
     * on that connection then fails. Read to its end, the connection stays usable. The answer goes
     * first, so that a client that waits for it before sending the rest is not kept waiting.
     */
    private static void readRest(HttpServletRequest request, ServletResponse response) {
        boolean hasBody = request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
        if (!hasBody || request.getDispatcherType() != jakarta.servlet.DispatcherType.REQUEST || request.isAsyncStarted()) {
            return;
        }
        try {
            ServletInputStream in = request.getInputStream();
            if (!in.isFinished()) {
                response.flushBuffer();
                in.transferTo(java.io.OutputStream.nullOutputStream());
            }
        } catch (IllegalStateException readThroughReader) {
            // The resource read the body as characters; whatever it left, Jetty handles as before.
        } catch (IOException bodyCutOrTooLarge) {
            // The client stopped sending, or the rest is over the limit: the connection closes, as before.
        }
    }

    private static boolean isUpload(HttpServletRequest request) {
        String type = request.getContentType();
        if (type == null) {
            return false;
        }
        String lower = type.toLowerCase(java.util.Locale.ROOT);
        return lower.startsWith("multipart/") || lower.startsWith("application/java-archive")
                || lower.startsWith("application/octet-stream") || lower.startsWith("application/zip");
    }

    /** A request whose body stream fails once more than {@code limit} bytes have been read. */
    private static final class Limited extends HttpServletRequestWrapper {
        private final long limit;
        private ServletInputStream stream;

        Limited(HttpServletRequest request, long limit) {
            super(request);
            this.limit = limit;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new Counting(super.getInputStream(), limit);
            }
            return stream;
        }
    }

    private static final class Counting extends ServletInputStream {
        private final ServletInputStream in;
        private final long limit;
        private long read;

        Counting(ServletInputStream in, long limit) {
            this.in = in;
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws IOException {
            read += n;
            if (read > limit) {
                // As for a declared length: let the client finish writing (up to a bound) so it reads the 413.
                byte[] discard = new byte[8192];
                long drained = read;
                int got;
                while (drained < DRAIN_LIMIT && (got = in.read(discard)) > 0) {
                    drained += got;
                }
                throw new TooLarge(limit);
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
