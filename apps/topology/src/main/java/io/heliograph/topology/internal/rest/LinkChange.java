package io.heliograph.topology.internal.rest;

/**
 * A {@code link} live event: one direction of a cable was {@code added} or {@code removed}, or its
 * reverse direction appeared or went ({@code updated}: see {@code bidirectional}). The ends are as in
 * {@link LinkView}; {@code bidirectional} says whether the reverse direction is known after the change.
 */
public record LinkChange(String action, LinkView.End src, LinkView.End dst, boolean bidirectional) {
}
