package io.heliograph.webui;

import java.io.IOException;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.List;

import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.ResourceHttpMessageConverter;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.http.converter.json.MappingJackson2HttpMessageConverter;
import org.springframework.web.context.support.GenericWebApplicationContext;
import org.springframework.web.multipart.support.StandardServletMultipartResolver;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.heliograph.webui.auth.AccessTokens;
import io.heliograph.webui.auth.AdminCredentials;
import io.heliograph.webui.auth.Authentication;
import io.heliograph.webui.auth.TokensResource;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.MultipartConfigElement;

/**
 * The HTTP server: embedded Jetty with one servlet, Spring's DispatcherServlet, behind the
 * authentication and request size filters. Spring is assembled by hand from the few parts the REST
 * API uses (no Spring Boot, no classpath scanning: in OSGi the resources come from other bundles,
 * one object at a time, through {@link #map} and {@link #unmap}).
 */
final class RestServer {

    private static final Logger LOG = LoggerFactory.getLogger(RestServer.class);
    private static final int MAX_THREADS = 32;

    private final HttpSettings settings;
    private final Path dataDir;
    private final String instanceId;
    private final ControllerView controller;
    private final ObjectMapper json = RestJson.objectMapper();
    private final ResourceMappings mappings = new ResourceMappings();
    private final RestLatency latency = new RestLatency();
    private Server server;
    private ServerConnector http;
    private ServerConnector https;
    private volatile boolean ready;

    private final UiPages pages;

    RestServer(HttpSettings settings, Path dataDir, String instanceId, ControllerView controller, UiPages pages) {
        this.pages = pages;
        this.settings = settings;
        this.dataDir = dataDir;
        this.instanceId = instanceId;
        this.controller = controller;
    }

    void start() throws IOException {
        SecureRandom random = new SecureRandom();
        AccessTokens tokens = AccessTokens.inDataDirectory(dataDir, random);
        // Hashing a first start's new password takes a good part of a second: beside Jetty's and Spring's start.
        CompletableFuture<AdminCredentials> admin = settings.authentication() ? CompletableFuture.supplyAsync(() -> {
            try {
                return AdminCredentials.inDataDirectory(dataDir, random);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }) : null;
        Authentication authentication = admin != null ? new Authentication(admin::join, tokens) : null;
        if (authentication == null) {
            LOG.warn("authentication is OFF (authentication=false in etc/io.heliograph.webui.cfg):"
                    + " anyone who reaches the HTTP port controls this controller");
        }

        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 2);
        threads.setName("heliograph-http");
        threads.setDaemon(true);
        server = new Server(threads);
        server.setErrorHandler(new JsonErrorPages.ServerLevel());
        HttpConfiguration httpConfig = new HttpConfiguration();
        httpConfig.setSendServerVersion(false);
        httpConfig.setSendXPoweredBy(false);
        http = new ServerConnector(server, 1, 1, new HttpConnectionFactory(httpConfig));
        http.setHost(settings.address());
        http.setPort(settings.port());
        server.addConnector(http);
        if (settings.httpsPort() >= 0) {
            https = httpsConnector(httpConfig);
            server.addConnector(https);
        }
        server.setHandler(servletContext(authentication));

        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(RestServer.class.getClassLoader());
        try {
            server.start();
        } catch (Exception e) {
            stopQuietly();
            awaitQuietly(admin);
            Throwable root = rootCause(e);
            String what = root instanceof BindException ? "cannot listen for HTTP on " + settings.address() + ":"
                    + settings.port() + (https != null ? " / HTTPS port " + settings.httpsPort() : "") + ": "
                    + root.getMessage() : "cannot start the HTTP server" + (https != null ? " (HTTPS keystore "
                    + settings.keystore().orElseThrow() + ")" : "") + ": " + root;
            throw new IOException(what, e);
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
        mappings.map(new HealthResource(controller.switches(), () -> ready));
        mappings.map(new TokensResource(tokens));
        mappings.map(new OpenApiResource(mappings, controller.version(), json));
        mappings.map(new ControllerResource(controller, instanceId));
        mappings.map(new MetricsResource(controller, latency));
        mappings.map(new LimitsResource(controller));
        mappings.map(new UiResource(pages));
        if (admin != null) {
            try {
                admin.join();
            } catch (CompletionException e) {
                stopQuietly();
                throw e.getCause() instanceof UncheckedIOException io ? io.getCause()
                        : new IOException("cannot set up the administrator's credentials", e.getCause());
            }
        }
        // Last: health answering UP is how tests and orchestration learn the server is all there.
        ready = true;
        LOG.info("HTTP listening on {}:{}{}", settings.address(), http.getLocalPort(),
                https != null ? ", HTTPS on port " + https.getLocalPort() : "");
    }

    /**
     * A start that fails does not leave the credentials' first write running behind it: the caller
     * (an operator fixing the configuration, a test removing the data directory) finds it finished.
     */
    private static void awaitQuietly(CompletableFuture<AdminCredentials> admin) {
        if (admin != null) {
            try {
                admin.join();
            } catch (CompletionException ignored) {
                // the start's own failure is what gets reported
            }
        }
    }

    void stop() {
        for (Object resource : mappings.resources()) {
            if (resource instanceof HeldConnections held) {
                held.endHeldConnections();
            }
        }
        stopQuietly();
        LOG.info("HTTP stopped");
    }

    private void stopQuietly() {
        try {
            server.stop();
        } catch (Exception e) {
            LOG.warn("stopping the HTTP server: {}", e.toString());
        }
    }

    boolean map(Object resource) {
        return mappings.map(resource);
    }

    void unmap(Object resource) {
        mappings.unmap(resource);
    }

    ResourceMappings mappings() {
        return mappings;
    }

    /** The bound HTTP port (the real one when the settings asked for port 0). */
    int port() {
        return http.getLocalPort();
    }

    /** The bound HTTPS port, or -1 without HTTPS. */
    int httpsPort() {
        return https == null ? -1 : https.getLocalPort();
    }

    private ServerConnector httpsConnector(HttpConfiguration httpConfig) {
        SslContextFactory.Server tls = new SslContextFactory.Server();
        Path keystore = settings.keystore().orElseThrow();
        tls.setKeyStorePath(keystore.toAbsolutePath().toString());
        tls.setKeyStorePassword(settings.keystorePassword());
        tls.setKeyStoreType(settings.keystoreType());
        HttpConfiguration httpsConfig = new HttpConfiguration(httpConfig);
        // Clients reach the controller by address as often as by name: do not insist on SNI matching.
        httpsConfig.addCustomizer(new SecureRequestCustomizer(false));
        ServerConnector connector = new ServerConnector(server, 1, 1, new SslConnectionFactory(tls, "http/1.1"),
                new HttpConnectionFactory(httpsConfig));
        connector.setHost(settings.address());
        connector.setPort(settings.httpsPort());
        return connector;
    }

    private ServletContextHandler servletContext(Authentication authentication) throws IOException {
        ServletContextHandler context = new ServletContextHandler("/", ServletContextHandler.NO_SESSIONS);
        context.setClassLoader(RestServer.class.getClassLoader());
        context.setErrorHandler(new JsonErrorPages.ContextLevel());

        DispatcherServlet spring = new DispatcherServlet(springContext());
        // Through the mappings like any method: TRACE then answers 405, instead of the servlet API's
        // default of echoing the request, headers and credentials included.
        spring.setDispatchTraceRequest(true);
        ServletHolder dispatcher = new ServletHolder("rest", spring);
        dispatcher.setInitOrder(0);
        dispatcher.setAsyncSupported(true);
        Path uploads = Files.createDirectories(dataDir.resolve("webui/uploads"));
        dispatcher.getRegistration().setMultipartConfig(new MultipartConfigElement(uploads.toString(),
                settings.maxUploadBytes(), settings.maxUploadBytes(), 1 << 20));
        context.addServlet(dispatcher, "/");

        // first, so that what the filters after it refuse is timed too
        context.addFilter(new FilterHolder(latency), "/*", EnumSet.of(DispatcherType.REQUEST));
        if (authentication != null) {
            context.addFilter(new FilterHolder(authentication), "/*", EnumSet.of(DispatcherType.REQUEST));
        }
        context.addFilter(new FilterHolder(new PathEncodingCheck()), "/*", EnumSet.of(DispatcherType.REQUEST));
        context.addFilter(new FilterHolder(new RequestSizeLimit(settings.maxBodyBytes(), settings.maxUploadBytes())),
                "/*", EnumSet.of(DispatcherType.REQUEST));
        return context;
    }

    private GenericWebApplicationContext springContext() {
        GenericWebApplicationContext spring = new GenericWebApplicationContext();
        spring.setClassLoader(RestServer.class.getClassLoader());
        spring.registerBean("resourceMappings", ResourceMappings.class, () -> mappings);
        spring.registerBean("handlerAdapter", RequestMappingHandlerAdapter.class, this::handlerAdapter);
        spring.registerBean("errorResponses", ErrorResponses.class, () -> new ErrorResponses(mappings));
        spring.registerBean(DispatcherServlet.MULTIPART_RESOLVER_BEAN_NAME, StandardServletMultipartResolver.class,
                StandardServletMultipartResolver::new);
        return spring;
    }

    private RequestMappingHandlerAdapter handlerAdapter() {
        RequestMappingHandlerAdapter adapter = new RequestMappingHandlerAdapter();
        List<HttpMessageConverter<?>> converters = List.of(new ByteArrayHttpMessageConverter(),
                new StringHttpMessageConverter(java.nio.charset.StandardCharsets.UTF_8),
                new ResourceHttpMessageConverter(), new MappingJackson2HttpMessageConverter(json));
        adapter.setMessageConverters(new java.util.ArrayList<>(converters));
        return adapter;
    }

    private static Throwable rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}
