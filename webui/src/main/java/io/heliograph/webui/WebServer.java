package io.heliograph.webui;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.heliograph.core.SwitchService;

/**
 * The controller's HTTP server. For now it serves only {@code /api/v1/health}, with the JDK's
 * built-in server; the REST issue replaces it with Jetty and Spring Web MVC. A configuration
 * change restarts it on the new address (Declarative Services reactivates the component).
 */
@Component(configurationPid = WebServer.PID)
@Designate(ocd = WebServer.Config.class)
public class WebServer {

    static final String PID = "io.heliograph.webui";
    static final String HEALTH_PATH = "/api/v1/health";

    @ObjectClassDefinition(name = "Heliograph HTTP server", description = "REST API and web UI listener")
    public @interface Config {
        @AttributeDefinition(description = "Address to listen on; 0.0.0.0 for every interface")
        String address() default "0.0.0.0";

        @AttributeDefinition(description = "TCP port (etc/io.heliograph.webui.cfg sets it from --http-port)",
                min = "0", max = "65535")
        int port() default 8080;
    }

    private static final Logger LOG = LoggerFactory.getLogger(WebServer.class);

    /** Optional and dynamic: health answers 503 while the OpenFlow layer is not there. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile SwitchService switches;

    private HttpServer server;
    private ExecutorService executor;

    @Activate
    void activate(Config config) throws IOException {
        InetSocketAddress address = new InetSocketAddress(config.address(), config.port());
        try {
            server = HttpServer.create(address, 0);
        } catch (IOException e) {
            LOG.error("cannot listen for HTTP on {}:{}: {}", config.address(), config.port(), e.toString());
            throw e;
        }
        executor = Executors.newFixedThreadPool(2, namedDaemonThreads());
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
        LOG.info("HTTP listening on {}", server.getAddress());
    }

    @Deactivate
    void deactivate() {
        server.stop(0);
        executor.shutdownNow();
        LOG.info("HTTP stopped on {}", server.getAddress());
    }

    /** The bound address (the real port when the configuration asked for port 0). */
    InetSocketAddress address() {
        return server.getAddress();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            String path = exchange.getRequestURI().getPath();
            if (!HEALTH_PATH.equals(path)) {
                send(exchange, 404, "{\"error\":\"no resource at " + jsonEscape(path) + "\"}");
            } else if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, "{\"error\":\"" + jsonEscape(exchange.getRequestMethod())
                        + " is not allowed here; use GET\"}");
            } else {
                Health.Answer answer = Health.of(switches);
                send(exchange, answer.status(), answer.json());
            }
        } catch (RuntimeException e) {
            // The JDK server would just drop the connection: answer 500 and say why in the log.
            LOG.error("HTTP {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            if (exchange.getResponseCode() == -1) {
                send(exchange, 500, "{\"error\":\"internal error, see the controller log\"}");
            }
        } finally {
            exchange.close();
        }
    }

    private static void send(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    static String jsonEscape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }

    private static java.util.concurrent.ThreadFactory namedDaemonThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "heliograph-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
