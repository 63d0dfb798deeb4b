package io.heliograph.staticflows.internal.rest;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.Result;
import io.heliograph.staticflows.StaticEntry;
import io.heliograph.staticflows.StaticFlowService;
import io.heliograph.webui.api.Requests;

/**
 * Adds and deletes entries through the static flow service for both the API and Floodlight's paths,
 * turning its results into answers or refusals: problems with the request are 400, clashes with
 * stored state 409, a switch that refuses a valid entry 502, a cluster store that cannot be reached
 * 503 (nothing was changed). The service never leaves a result
 * pending for long (its request timeout); the wait here is a bound on a bug, not a policy.
 */
final class EntryWriter {

    private static final long RESULT_WAIT_SECONDS = 60;

    private final StaticFlowService service;

    EntryWriter(StaticFlowService service) {
        this.service = service;
    }

    /**
     * Validates and stores the document's entry. With {@code create}, a name the switch already uses
     * (by an entry of any kind) is a conflict; otherwise the entry replaces its namesake, which must
     * be of the same kind.
     */
    synchronized WriteOutcome add(EntryDocument document, boolean create) {
        StaticEntry entry = document.entry();
        List<String> problems = service.validate(entry);
        if (!problems.isEmpty()) {
            throw Problems.refusal(problems, document.members);
        }
        EntryStatus existing = find(entry.dpid(), entry.name());
        if (existing != null && create) {
            throw Requests.conflict("name", "switch " + entry.dpid() + " already has a " + existing.entry().kind()
                    + " named '" + entry.name() + "'; PUT replaces it, DELETE removes it");
        }
        if (existing != null && !existing.entry().kind().equals(entry.kind())) {
            throw Requests.conflict("name", "'" + entry.name() + "' on switch " + entry.dpid() + " is a "
                    + existing.entry().kind() + ", not a " + entry.kind() + "; delete it first");
        }
        Result result = await(service.add(entry).toCompletableFuture());
        switch (result.outcome()) {
            case INSTALLED, STORED -> {
                EntryStatus stored = find(entry.dpid(), entry.name());
                return new WriteOutcome(result.outcome().name(), result.problems(),
                        stored == null ? null : StaticEntryView.of(stored, service::reconciliation));
            }
            case REFUSED -> throw Problems.refusal(result.problems(), document.members);
            case UNAVAILABLE -> throw Requests.unavailable(result.message());
            default -> throw Requests.switchFailed(result.message());
        }
    }

    /** Deletes one entry; refuses one that others still use. */
    synchronized WriteOutcome delete(DatapathId dpid, String name) {
        Result result = await(service.delete(dpid, name).toCompletableFuture());
        return switch (result.outcome()) {
            case DELETED -> new WriteOutcome(result.outcome().name(), result.problems(), null);
            case NOT_FOUND -> throw Requests.notFound("name", result.message());
            case REFUSED -> throw Problems.refusal(result.problems(), Map.of());
            case UNAVAILABLE -> throw Requests.unavailable(result.message());
            default -> throw Requests.switchFailed(result.message());
        };
    }

    /**
     * For clearing a switch: deletes one entry; true when it is gone (also when another request took
     * it first), false when another entry still uses it, so the caller tries again after the others.
     */
    synchronized boolean deleteUnlessInUse(DatapathId dpid, String name) {
        Result result = await(service.delete(dpid, name).toCompletableFuture());
        return switch (result.outcome()) {
            case DELETED, NOT_FOUND -> true;
            case REFUSED -> false;
            case UNAVAILABLE -> throw Requests.unavailable(result.message());
            default -> throw Requests.switchFailed(result.message());
        };
    }

    EntryStatus find(DatapathId dpid, String name) {
        return service.list(dpid).stream().filter(s -> s.entry().name().equals(name)).findFirst().orElse(null);
    }

    private static Result await(java.util.concurrent.CompletableFuture<Result> pending) {
        try {
            return pending.get(RESULT_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Requests.switchFailed("interrupted while waiting for the switch");
        } catch (ExecutionException | TimeoutException e) {
            throw Requests.switchFailed("the static flow service did not answer: " + e);
        }
    }
}
