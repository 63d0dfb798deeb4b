package io.heliograph.webui;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.util.ClassUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * The request mappings of the REST resources that are registered now. Resources come and go at run
 * time with their bundles, so there is no classpath scan: {@link #map} adds the handler methods of
 * one resource object, {@link #unmap} removes exactly those again. A resource that would map a path
 * and method another resource already has is refused as a whole, so the first one keeps working and
 * the second never answers half of its paths.
 */
final class ResourceMappings extends RequestMappingHandlerMapping {

    private static final Logger LOG = LoggerFactory.getLogger(ResourceMappings.class);

    /** What each mapped resource registered, to take away exactly that when it goes. */
    private final Map<Object, List<RequestMappingInfo>> mapped = new IdentityHashMap<>();

    ResourceMappings() {
        setOrder(0);
    }

    /** Resources are objects handed to {@link #map}, never beans of the web context. */
    @Override
    protected boolean isHandler(Class<?> beanType) {
        return false;
    }

    /**
     * Maps the handler methods of {@code resource}; returns false (and logs why) when one of them
     * clashes with a mapping that is there already or the object has no request mappings.
     */
    synchronized boolean map(Object resource) {
        if (mapped.containsKey(resource)) {
            return true;
        }
        Class<?> type = ClassUtils.getUserClass(resource.getClass());
        Map<Method, RequestMappingInfo> methods;
        try {
            methods = MethodIntrospector.selectMethods(type,
                    (MethodIntrospector.MetadataLookup<RequestMappingInfo>) method -> getMappingForMethod(method, type));
        } catch (RuntimeException e) {
            LOG.error("REST resource {} refused: its mappings cannot be read: {}", type.getName(), e.toString());
            return false;
        }
        if (methods.isEmpty()) {
            LOG.error("REST resource {} refused: it has no @RequestMapping methods", type.getName());
            return false;
        }
        Map<RequestMappingInfo, HandlerMethod> existing = getHandlerMethods();
        for (Map.Entry<Method, RequestMappingInfo> entry : methods.entrySet()) {
            HandlerMethod owner = existing.get(entry.getValue());
            if (owner != null) {
                LOG.error("REST resource {} refused: {} is already mapped to {}", type.getName(), entry.getValue(),
                        owner);
                return false;
            }
        }
        List<RequestMappingInfo> registered = new ArrayList<>();
        try {
            for (Map.Entry<Method, RequestMappingInfo> entry : methods.entrySet()) {
                registerHandlerMethod(resource, entry.getKey(), entry.getValue());
                registered.add(entry.getValue());
            }
        } catch (RuntimeException e) {
            registered.forEach(this::unregisterMapping);
            LOG.error("REST resource {} refused: {}", type.getName(), e.getMessage());
            return false;
        }
        mapped.put(resource, registered);
        LOG.info("REST resource {} mapped: {}", type.getName(), registered);
        return true;
    }

    /** Whether {@code resource} is mapped now. */
    synchronized boolean isMapped(Object resource) {
        return mapped.containsKey(resource);
    }

    /** The resources mapped now. */
    synchronized List<Object> resources() {
        return List.copyOf(mapped.keySet());
    }

    /** Removes the mappings {@link #map} made for {@code resource}; nothing if it was refused. */
    synchronized void unmap(Object resource) {
        List<RequestMappingInfo> registered = mapped.remove(resource);
        if (registered != null) {
            registered.forEach(this::unregisterMapping);
            LOG.info("REST resource {} unmapped", ClassUtils.getUserClass(resource.getClass()).getName());
        }
    }
}
