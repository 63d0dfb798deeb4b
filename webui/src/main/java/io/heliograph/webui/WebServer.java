package io.heliograph.webui;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.osgi.framework.BundleContext;
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

import io.heliograph.core.MessageStatistics;
import io.heliograph.core.MetricSource;
import io.heliograph.core.StateBounds;
import io.heliograph.core.SwitchService;
import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.api.UiPage;

/**
 * The controller's HTTP server as a component: it runs a {@link RestServer} with the configuration of
 * pid {@value #PID} and maps every {@link RestResource} service while it is registered; the apps'
 * {@link StateBounds} and {@link MetricSource} services are read by {@code /api/v1/limits} and
 * {@code /metrics} while they are registered. A configuration change restarts the server on the new
 * settings (Declarative Services reactivates the component); resources stay registered and are mapped
 * again.
 */
@Component(configurationPid = WebServer.PID)
@Designate(ocd = WebServer.Config.class)
public class WebServer {

    static final String PID = "io.heliograph.webui";
    static final String DATA_DIR_PROPERTY = "heliograph.data.dir";
    /** Set by the launcher: from --instance-id, else kept in the data directory. */
    static final String INSTANCE_ID_PROPERTY = "heliograph.instance.id";

    @ObjectClassDefinition(name = "Heliograph HTTP server", description = "REST API and web UI listener")
    public @interface Config {
        @AttributeDefinition(description = "Address to listen on; 0.0.0.0 for every interface")
        String address() default "0.0.0.0";

        @AttributeDefinition(description = "TCP port (etc/io.heliograph.webui.cfg sets it from --http-port)",
                min = "0", max = "65535")
        int port() default 8080;

        @AttributeDefinition(description = "HTTPS port; -1 for no HTTPS listener", min = "-1", max = "65535")
        int https_port() default -1;

        @AttributeDefinition(description = "Keystore with the HTTPS key and certificate")
        String https_keystore() default "";

        @AttributeDefinition(description = "Password of the keystore and its key", type = org.osgi.service.metatype.annotations.AttributeType.PASSWORD)
        String https_keystore_password() default "";

        @AttributeDefinition(description = "Keystore type: PKCS12 or JKS")
        String https_keystore_type() default "PKCS12";

        @AttributeDefinition(description = "Largest request body (JSON) in bytes; larger answers 413")
        long max_body_bytes() default HttpSettings.DEFAULT_MAX_BODY_BYTES;

        @AttributeDefinition(description = "Largest upload (multipart, bundle jar) in bytes; larger answers 413")
        long max_upload_bytes() default HttpSettings.DEFAULT_MAX_UPLOAD_BYTES;

        @AttributeDefinition(description = "Require HTTP Basic or a bearer token on everything but health and the UI shell")
        boolean authentication() default true;
    }

    /** Optional and dynamic: health answers 503 while the OpenFlow layer is not there. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile SwitchService switches;

    /** Optional and dynamic: the controller resource and the metrics leave out message counts without it. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile MessageStatistics messages;

    /** The apps' bounded tables and metrics: read on each request, so an app's appear while it runs. */
    private final Set<StateBounds> stateBounds = ConcurrentHashMap.newKeySet();
    private final Set<MetricSource> metricSources = ConcurrentHashMap.newKeySet();

    private final Set<RestResource> resources = ConcurrentHashMap.newKeySet();
    private final UiPages pages = new UiPages();
    private RestServer server;

    @Activate
    void activate(BundleContext context, Config config) throws IOException {
        String dataDir = context.getProperty(DATA_DIR_PROPERTY);
        String instanceId = context.getProperty(INSTANCE_ID_PROPERTY);
        if (instanceId == null || instanceId.isBlank()) {
            throw new IllegalStateException("the framework property " + INSTANCE_ID_PROPERTY
                    + " is not set: start the controller with its launcher (heliograph.jar), which sets it");
        }
        activate(Path.of(dataDir != null ? dataDir : "data"), instanceId, settings(config),
                context.getBundle().getVersion().toString());
    }

    synchronized void activate(Path dataDir, String instanceId, HttpSettings settings, String version)
            throws IOException {
        RestServer starting = new RestServer(settings, dataDir, instanceId,
                new ControllerView(version, () -> switches, () -> messages, () -> List.copyOf(stateBounds),
                        () -> List.copyOf(metricSources)), pages);
        starting.start();
        server = starting;
        resources.forEach(server::map);
    }

    @Deactivate
    synchronized void deactivate() {
        if (server != null) {
            server.stop();
            server = null;
        }
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY, unbind = "removeResource")
    synchronized void addResource(RestResource resource) {
        resources.add(resource);
        if (server != null) {
            server.map(resource);
        }
    }

    synchronized void removeResource(RestResource resource) {
        resources.remove(resource);
        if (server != null) {
            server.unmap(resource);
        }
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY, unbind = "removeStateBounds")
    void addStateBounds(StateBounds bounds) {
        stateBounds.add(bounds);
    }

    void removeStateBounds(StateBounds bounds) {
        stateBounds.remove(bounds);
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY, unbind = "removeMetricSource")
    void addMetricSource(MetricSource source) {
        metricSources.add(source);
    }

    void removeMetricSource(MetricSource source) {
        metricSources.remove(source);
    }

    /** Pages need no running server: the navigation asks for the list each time. */
    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY, unbind = "removePage")
    void addPage(UiPage page) {
        pages.add(page);
    }

    void removePage(UiPage page) {
        pages.remove(page);
    }

    /** The running server, for tests in this package. */
    synchronized RestServer server() {
        return server;
    }

    static HttpSettings settings(Config config) {
        String keystore = config.https_keystore().strip();
        return new HttpSettings(config.address(), config.port(), config.https_port(),
                keystore.isEmpty() ? Optional.empty() : Optional.of(Path.of(keystore)),
                config.https_keystore_password(), config.https_keystore_type(), config.max_body_bytes(),
                config.max_upload_bytes(), config.authentication());
    }
}
