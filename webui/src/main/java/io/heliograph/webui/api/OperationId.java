package io.heliograph.webui.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The operation's id in the OpenAPI document at {@code /api/v1/openapi.json}: what a generated client
 * names its function or method, so a verb and the domain thing it acts on, in lower camel case
 * ({@code listSwitches}, {@code createStaticEntry}), unique in the whole API and stable across
 * releases (renaming a handler method must not rename a client's call).
 *
 * <p>A handler mapped to several paths (Floodlight's older names of the same resource) names the id of
 * each further path in {@link #aliases}; {@link #value} is the id of the paths not listed there. Two
 * handlers of one path and method (the same operation for two content types) carry the same id.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface OperationId {

    /** The id, e.g. {@code listSwitches}. */
    String value();

    /** The ids of the handler's further paths, by the path as the document writes it. */
    Alias[] aliases() default {};

    /** The id of one further path of the handler: {@code @Alias(path = "/wm/staticflowpusher/json", id = "...")}. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target({})
    @interface Alias {

        /** The path as the document writes it: {@code /wm/staticflowpusher/list/{dpid}/json}. */
        String path();

        String id();
    }
}
