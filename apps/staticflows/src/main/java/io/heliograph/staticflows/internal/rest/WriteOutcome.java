package io.heliograph.staticflows.internal.rest;

import java.util.List;

/**
 * What a write did: the outcome name (INSTALLED, STORED, DELETED) and any notes the service added
 * (e.g. "stored, but the switch did not confirm it"), and for an add the entry as now stored.
 */
public record WriteOutcome(String outcome, List<String> notes, StaticEntryView stored) {
}
