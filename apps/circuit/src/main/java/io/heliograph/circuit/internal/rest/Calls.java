package io.heliograph.circuit.internal.rest;

import java.util.function.Supplier;

import org.springframework.http.HttpStatus;

import io.heliograph.circuit.internal.CircuitRefusal;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.webui.api.ApiException;

/** Runs a call of the circuit app and answers its refusals with the status that says whose fault they are. */
final class Calls {

    private Calls() {
    }

    static <T> T answer(Supplier<T> call) {
        try {
            return call.get();
        } catch (CircuitRefusal e) {
            throw new ApiException(status(e.kind()), e.field(), e.getMessage());
        } catch (StoreUnavailableException e) {
            throw ApiException.unavailable("the cluster's shared store cannot be reached now: " + e.getMessage());
        }
    }

    private static HttpStatus status(CircuitRefusal.Kind kind) {
        return switch (kind) {
            case BAD_REQUEST -> HttpStatus.BAD_REQUEST;
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            case CONFLICT -> HttpStatus.CONFLICT;
            case UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
        };
    }
}
