package io.heliograph.testbed;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, one request per connection, for requests no ordinary client sends:
 * the request target is written byte for byte (no normalisation of {@code ../}, no re-encoding of
 * {@code %00}), any header may be missing or malformed, and a body may be declared by length or sent
 * chunked. It never throws for what the server does: a connection closed or reset before a status
 * line is an {@link Answer} with status 0 and the reason.
 */
public final class RawHttp {

    /** The most of a response body kept; the rest is read and dropped. */
    private static final int BODY_KEPT = 64 * 1024;
    private static final int TIMEOUT_MS = 30_000;

    private final int port;

    public RawHttp(int port) {
        this.port = port;
    }

    /**
     * What came back: the status (0 if none), the headers (names in lower case), the start of the body,
     * and for status 0 why nothing came.
     */
    public record Answer(int status, Map<String, String> headers, String body, String failure) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /**
     * Sends {@code method target} with {@code headers} (whole lines, e.g. "Content-Type: text/plain") and
     * {@code body} (null: none). {@code chunked} sends the body without a length, in chunks.
     */
    public Answer send(String method, String target, List<String> headers, byte[] body, boolean chunked) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(TIMEOUT_MS);
            String writeFailure = null;
            try {
                write(socket.getOutputStream(), method, target, headers, body, chunked);
            } catch (IOException e) {
                // The server may answer and close before reading everything (a 413, a 401): read its answer.
                writeFailure = e.toString();
            }
            Answer answer = read(socket.getInputStream());
            if (answer.status() == 0 && writeFailure != null) {
                return new Answer(0, Map.of(), "", answer.failure() + " (writing: " + writeFailure + ")");
            }
            return answer;
        } catch (IOException e) {
            return new Answer(0, Map.of(), "", e.toString());
        }
    }

    private void write(OutputStream out, String method, String target, List<String> headers, byte[] body,
            boolean chunked) throws IOException {
        StringBuilder head = new StringBuilder();
        head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        head.append("Host: 127.0.0.1:").append(port).append("\r\n");
        for (String header : headers) {
            head.append(header).append("\r\n");
        }
        head.append("Connection: close\r\n");
        if (body != null) {
            head.append(chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + body.length + "\r\n");
        }
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.UTF_8));
        if (body != null && !chunked) {
            out.write(body);
        } else if (body != null) {
            for (int at = 0; at < body.length; at += 8192) {
                int n = Math.min(8192, body.length - at);
                out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body, at, n);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.flush();
    }

    private static Answer read(InputStream in) {
        Map<String, String> headers = new LinkedHashMap<>();
        int status;
        try {
            String statusLine = line(in);
            if (statusLine == null) {
                return new Answer(0, Map.of(), "", "connection closed before a status line");
            }
            String[] parts = statusLine.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
                return new Answer(0, Map.of(), "", "not an HTTP status line: " + statusLine);
            }
            status = Integer.parseInt(parts[1]);
            String line;
            while ((line = line(in)) != null && !line.isEmpty()) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    headers.merge(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim(),
                            (a, b) -> a + ", " + b);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return new Answer(0, Map.of(), "", e.toString());
        }
        String type = headers.getOrDefault("content-type", "");
        if (type.startsWith("text/event-stream")) {
            return new Answer(status, headers, "", null);   // a stream that does not end: the head says enough
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        try {
            String length = headers.get("content-length");
            if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                readChunked(in, body);
            } else if (length != null) {
                copy(in, body, Long.parseLong(length));
            } else {
                copy(in, body, Long.MAX_VALUE);
            }
        } catch (IOException | NumberFormatException e) {
            // the status and headers came; a body cut short is still an answer
        }
        return new Answer(status, headers, body.toString(StandardCharsets.UTF_8), null);
    }

    private static void readChunked(InputStream in, ByteArrayOutputStream body) throws IOException {
        while (true) {
            String size = line(in);
            if (size == null) {
                return;
            }
            int semicolon = size.indexOf(';');
            long n = Long.parseLong((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
            if (n == 0) {
                return;
            }
            copy(in, body, n);
            line(in);
        }
    }

    private static void copy(InputStream in, ByteArrayOutputStream body, long length) throws IOException {
        byte[] buffer = new byte[8192];
        long left = length;
        while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                return;
            }
            if (body.size() < BODY_KEPT) {
                body.write(buffer, 0, Math.min(n, BODY_KEPT - body.size()));
            }
            left -= n;
        }
    }

    /** A line up to CRLF (or LF), without it; null at the end of the stream before any byte. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }
}
