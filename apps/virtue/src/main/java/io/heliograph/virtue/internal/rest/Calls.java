package io.heliograph.virtue.internal.rest;

import java.util.function.Supplier;

import org.springframework.http.HttpStatus;

import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.webui.api.ApiException;
import io.heliograph.virtue.internal.VirtueException;

/** Runs a call of the Virtue app and answers its refusals with the status that says whose fault they are. */
final class Calls {

    private Calls() {
    }

    static <T> T answer(Supplier<T> call) {
        try {
            return call.get();
        } catch (VirtueException e) {
            throw new ApiException(status(e.kind()), e.field(), e.getMessage());
        } catch (StoreUnavailableException e) {
            throw ApiException.unavailable("the cluster's shared store cannot be reached now: " + e.getMessage());
        }
    }

    static void run(Runnable call) {
        answer(() -> {
            call.run();
            return null;
        });
    }

    private static HttpStatus status(VirtueException.Kind kind) {
        return switch (kind) {
            case BAD_REQUEST -> HttpStatus.BAD_REQUEST;
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            case CONFLICT -> HttpStatus.CONFLICT;
            case FORBIDDEN -> HttpStatus.FORBIDDEN;
            case UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
        };
    }
}
