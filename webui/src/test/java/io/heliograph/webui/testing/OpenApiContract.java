package io.heliograph.webui.testing;

import java.lang.reflect.Method;
import java.net.URL;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import io.heliograph.webui.OpenApiDocument;

/**
 * What the OpenAPI document promises generated clients, checked on a module's REST resources without
 * a server: every operation has a summary and a declared operation id, unique among them (see
 * {@link OpenApiDocument#contractProblems}). A module's test calls {@link #problems(String)} with its
 * package, so a resource added later is checked without being listed (heliograph-webui:tests).
 */
public final class OpenApiContract {

    private OpenApiContract() {
    }

    /** The problems of every {@code @RestController} of the main code under {@code basePackage}; the classes found too. */
    public static Result problems(String basePackage) {
        ClassPathScanningCandidateComponentProvider scan = new ClassPathScanningCandidateComponentProvider(false);
        scan.addIncludeFilter(new AnnotationTypeFilter(RestController.class));
        List<Class<?>> resources = new ArrayList<>();
        for (var candidate : scan.findCandidateComponents(basePackage)) {
            try {
                Class<?> type = Class.forName(candidate.getBeanClassName(), false, OpenApiContract.class.getClassLoader());
                if (!isTestCode(type)) {
                    resources.add(type);
                }
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        }
        return new Result(resources, problems(resources));
    }

    /** The resources found and their problems; no problems when all is well. */
    public record Result(List<Class<?>> resources, List<String> problems) {
    }

    /** The problems of these resource classes' handler methods. */
    public static List<String> problems(List<Class<?>> resources) {
        Mappings mappings = new Mappings();
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        Map<RequestMappingInfo, HandlerMethod> handlers = new LinkedHashMap<>();
        for (Class<?> type : resources) {
            beans.registerBeanDefinition(type.getName(), new RootBeanDefinition(type));
            Map<Method, RequestMappingInfo> methods = MethodIntrospector.selectMethods(type,
                    (MethodIntrospector.MetadataLookup<RequestMappingInfo>) method -> mappings.of(method, type));
            methods.forEach((method, info) -> handlers.put(info, new HandlerMethod(type.getName(), beans, method)));
        }
        return OpenApiDocument.contractProblems(handlers);
    }

    private static boolean isTestCode(Class<?> type) {
        URL location = type.getProtectionDomain().getCodeSource() == null ? null
                : type.getProtectionDomain().getCodeSource().getLocation();
        return location != null && location.getPath().endsWith("/test-classes/");
    }

    /** Spring's reading of a handler method's mapping, as the web bundle's mappings read it. */
    private static final class Mappings extends RequestMappingHandlerMapping {
        RequestMappingInfo of(Method method, Class<?> type) {
            return getMappingForMethod(method, type);
        }
    }
}
