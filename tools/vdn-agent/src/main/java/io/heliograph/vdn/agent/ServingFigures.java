package io.heliograph.vdn.agent;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an edge measures of its clients: the viewers of each client group by object (reported to the
 * controller), joins and their join time (a client's first chunk of a video: request arrival to the first
 * byte sent), the bitrates served, and the requests denied. A client is known by its {@code X-Vdn-Client}
 * header (its address without one) and forgotten once it asked for nothing for the viewer window.
 * Thread-safe.
 */
final class ServingFigures {

    /** The join times kept for the median and 90th percentile. */
    private static final int JOIN_SAMPLES = 512;

    private record Viewer(String group, String video, int bitrateKbps, long seenMillis) {
    }

    private final long windowMillis;
    private final Map<String, Viewer> viewers = new HashMap<>();
    /** client + " " + video: when it was last served. */
    private final Map<String, Long> watching = new HashMap<>();
    private final long[] joinMillis = new long[JOIN_SAMPLES];
    private long joins;
    private long denied;
    private long chunksServed;

    ServingFigures(long windowMillis) {
        this.windowMillis = windowMillis;
    }

    /** A client asked for a chunk (a group of null: a client outside any group, not reported). */
    synchronized void requested(String client, String group, String video, int bitrateKbps, long nowMillis) {
        viewers.put(client, new Viewer(group, video, bitrateKbps, nowMillis));
    }

    /** A client's request was denied. */
    synchronized void denied() {
        denied++;
    }

    /** A chunk's first byte went to a client {@code waitedMillis} after its request arrived; true when it joined. */
    synchronized boolean served(String client, String video, long waitedMillis, long nowMillis) {
        chunksServed++;
        Long last = watching.put(client + " " + video, nowMillis);
        if (last != null && nowMillis - last <= windowMillis) {
            return false;
        }
        joinMillis[(int) (joins % JOIN_SAMPLES)] = waitedMillis;
        joins++;
        return true;
    }

    /** Forgets the clients silent for the window. */
    synchronized void expire(long nowMillis) {
        viewers.values().removeIf(v -> nowMillis - v.seenMillis() > windowMillis);
        for (Iterator<Long> it = watching.values().iterator(); it.hasNext();) {
            if (nowMillis - it.next() > windowMillis) {
                it.remove();
            }
        }
    }

    /** The viewers per client group and object, as a cluster report lists them. */
    synchronized List<Map<String, Object>> viewers(long nowMillis) {
        Map<String, Integer> counts = new TreeMap<>();
        for (Viewer v : viewers.values()) {
            if (v.group() != null && nowMillis - v.seenMillis() <= windowMillis) {
                counts.merge(v.group() + " " + v.video() + " " + v.bitrateKbps(), 1, Integer::sum);
            }
        }
        List<Map<String, Object>> list = new ArrayList<>();
        counts.forEach((k, n) -> {
            String[] parts = k.split(" ");
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("group", parts[0]);
            entry.put("video", parts[1]);
            entry.put("bitrateKbps", Long.parseLong(parts[2]));
            entry.put("clients", (long) n);
            list.add(entry);
        });
        return list;
    }

    /** The figures published with the FIB, all whole numbers. */
    synchronized Map<String, Object> figures(long nowMillis) {
        int samples = (int) Math.min(joins, JOIN_SAMPLES);
        long[] sorted = Arrays.copyOf(joinMillis, samples);
        Arrays.sort(sorted);
        long clients = 0;
        long bitrateSum = 0;
        for (Viewer v : viewers.values()) {
            if (nowMillis - v.seenMillis() <= windowMillis) {
                clients++;
                bitrateSum += v.bitrateKbps();
            }
        }
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("joins", joins);
        figures.put("joinMillisMedian", samples == 0 ? 0L : sorted[(samples - 1) / 2]);
        figures.put("joinMillisP90", samples == 0 ? 0L : sorted[(int) Math.ceil(samples * 0.9) - 1]);
        figures.put("clients", clients);
        figures.put("bitrateKbpsMean", clients == 0 ? 0L : bitrateSum / clients);
        figures.put("denied", denied);
        figures.put("chunks", chunksServed);
        return figures;
    }
}
