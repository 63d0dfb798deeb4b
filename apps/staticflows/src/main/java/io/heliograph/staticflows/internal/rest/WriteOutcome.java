package io.heliograph.staticflows.internal.rest;

import java.util.List;

import io.heliograph.staticflows.Result;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiSchema;

/**
 * What a write did: the outcome name (INSTALLED, STORED, DELETED) and any notes the service added
 * (e.g. "stored, but the switch did not confirm it"), and for an add the entry as now stored.
 */
public record WriteOutcome(@ApiSchema(type = Result.Outcome.class, required = true) String outcome,
        @ApiSchema(required = true) List<String> notes,
        @ApiDescription("the entry as stored now; null after a delete") StaticEntryView stored) {
}
