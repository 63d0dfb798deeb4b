package io.heliograph.webui.api;

/**
 * The mark of a REST resource: an object of a class annotated with Spring's {@code @RestController}
 * and request mappings, registered as an OSGi service under this interface (for instance a
 * Declarative Services component with {@code service = RestResource.class}). The web bundle maps its
 * handler methods while the service is registered and unmaps them when it goes away, so an app's
 * paths live and die with the app. Paths are absolute ({@code /api/v1/...}, or a Floodlight alias
 * under {@code /wm/...}); two resources must not map the same path and method (the second is refused
 * and logged).
 */
public interface RestResource {
}
