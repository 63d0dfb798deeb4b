package io.heliograph.vdn.agent;

import java.nio.charset.StandardCharsets;

/**
 * What a source ingests: chunk {@code n} of a video at a bitrate exists from the stream's start plus
 * {@code n} chunk durations, and is {@code bitrate × chunkSeconds / 8} bytes that depend only on the video,
 * bitrate and chunk (so every source of a video sends the same bytes, and a client can check what it got).
 */
final class LiveChunk {

    private LiveChunk() {
    }

    /** The size of a chunk in bytes. */
    static int size(int bitrateKbps, int chunkSeconds) {
        return (int) ((long) bitrateKbps * 1000 * chunkSeconds / 8);
    }

    /** The content: a readable header naming the chunk, then a pseudo-random fill seeded by it. */
    static byte[] content(String video, int bitrateKbps, long chunk, int chunkSeconds) {
        byte[] body = new byte[size(bitrateKbps, chunkSeconds)];
        byte[] header = ("VDN " + video + "/" + bitrateKbps + "/" + chunk + "\n").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(header, 0, body, 0, Math.min(header.length, body.length));
        long x = (video.hashCode() * 0x9E3779B97F4A7C15L) ^ (bitrateKbps * 0xC2B2AE3D27D4EB4FL) ^ (chunk + 1);
        if (x == 0) {
            x = 1;
        }
        for (int i = header.length; i < body.length; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            body[i] = (byte) x;
        }
        return body;
    }

    /** The number of the newest chunk that exists at {@code nowMillis} (negative before the stream starts). */
    static long live(long nowMillis, long streamStartMillis, int chunkSeconds) {
        return Math.floorDiv(nowMillis - streamStartMillis, chunkSeconds * 1000L);
    }

    /** When chunk {@code n} exists. */
    static long availableAt(long chunk, long streamStartMillis, int chunkSeconds) {
        return streamStartMillis + chunk * chunkSeconds * 1000L;
    }
}
