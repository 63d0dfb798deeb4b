package io.heliograph.testbed;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A directory served over HTTP on a free loopback port, GET only, for browser tests of the web UI's
 * files without a controller. ES modules need their JavaScript content type, which is why a
 * {@code file:} URL will not do.
 */
public final class StaticFiles implements AutoCloseable {

    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "json", "application/json",
            "png", "image/png",
            "svg", "image/svg+xml");

    private final HttpServer server;
    private final ExecutorService executor;
    private final Path root;

    private StaticFiles(HttpServer server, ExecutorService executor, Path root) {
        this.server = server;
        this.executor = executor;
        this.root = root;
    }

    /** Serves {@code directory} at {@code http://127.0.0.1:<port>/}. */
    public static StaticFiles serve(Path directory) {
        Path root = directory.toAbsolutePath().normalize();
        if (!Files.isDirectory(root)) {
            throw new IllegalArgumentException("not a directory to serve: " + root);
        }
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            ExecutorService executor = Executors.newFixedThreadPool(4);
            StaticFiles files = new StaticFiles(server, executor, root);
            server.setExecutor(executor);
            server.createContext("/", files::handle);
            server.start();
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve " + root, e);
        }
    }

    /** The address of the served directory, ending in a slash. */
    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Path file = root.resolve(exchange.getRequestURI().getPath().substring(1)).normalize();
            if (!"GET".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
            } else if (!file.startsWith(root) || !Files.isRegularFile(file)) {
                exchange.sendResponseHeaders(404, -1);
            } else {
                String name = file.getFileName().toString();
                String type = TYPES.getOrDefault(name.substring(name.lastIndexOf('.') + 1), "application/octet-stream");
                byte[] body = Files.readAllBytes(file);
                exchange.getResponseHeaders().set("Content-Type", type);
                exchange.getResponseHeaders().set("Cache-Control", "no-store");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
