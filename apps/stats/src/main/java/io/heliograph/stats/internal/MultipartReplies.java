package io.heliograph.stats.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.projectfloodlight.openflow.protocol.OFStatsReply;

/** Joins the entries of every part of a multipart reply, in order. */
final class MultipartReplies {

    private MultipartReplies() {
    }

    /**
     * @throws IllegalArgumentException when a part is not of the expected reply type (a switch
     *                                  answering a request with another kind of reply)
     */
    static <R extends OFStatsReply, E> List<E> entries(List<? extends OFStatsReply> parts, Class<R> type,
            Function<R, List<E>> entriesOf) {
        List<E> entries = new ArrayList<>();
        for (OFStatsReply part : parts) {
            if (!type.isInstance(part)) {
                throw new IllegalArgumentException("expected " + type.getSimpleName() + " parts, got "
                        + part.getClass().getSimpleName());
            }
            entries.addAll(entriesOf.apply(type.cast(part)));
        }
        return entries;
    }
}
