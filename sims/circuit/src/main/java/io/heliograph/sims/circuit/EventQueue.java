package io.heliograph.sims.circuit;

/**
 * The simulator's future events: a binary min-heap of primitive (time, sequence, kind, argument) entries
 * in parallel arrays, so scheduling and taking an event allocate nothing (the arrays double when full,
 * which a run does a few times at most). Time is integer nanoseconds; events at one time come out in the
 * order they were scheduled, so a run is deterministic.
 */
final class EventQueue {

    private long[] time;
    private long[] order;
    private int[] kind;
    private int[] arg;
    private int size;
    private long sequence;

    private long lastTime;
    private int lastKind;
    private int lastArg;

    EventQueue(int capacity) {
        int n = Math.max(16, capacity);
        time = new long[n];
        order = new long[n];
        kind = new int[n];
        arg = new int[n];
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Schedules event {@code kind} with {@code argument} at {@code at} nanoseconds. */
    void add(long at, int eventKind, int argument) {
        if (size == time.length) {
            grow();
        }
        long seq = sequence++;
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            long pt = time[parent];
            if (pt < at || (pt == at && order[parent] < seq)) {
                break;
            }
            time[i] = pt;
            order[i] = order[parent];
            kind[i] = kind[parent];
            arg[i] = arg[parent];
            i = parent;
        }
        time[i] = at;
        order[i] = seq;
        kind[i] = eventKind;
        arg[i] = argument;
    }

    /** The earliest event's time; the queue must not be empty. */
    long peekTime() {
        return time[0];
    }

    /** Removes the earliest event; read it with {@link #time()}, {@link #kind()}, {@link #arg()}. */
    void poll() {
        lastTime = time[0];
        lastKind = kind[0];
        lastArg = arg[0];
        int n = --size;
        if (n == 0) {
            return;
        }
        long t = time[n];
        long o = order[n];
        int k = kind[n];
        int a = arg[n];
        int i = 0;
        int half = n >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < n && (time[right] < time[child] || (time[right] == time[child] && order[right] < order[child]))) {
                child = right;
            }
            long ct = time[child];
            if (t < ct || (t == ct && o < order[child])) {
                break;
            }
            time[i] = ct;
            order[i] = order[child];
            kind[i] = kind[child];
            arg[i] = arg[child];
            i = child;
        }
        time[i] = t;
        order[i] = o;
        kind[i] = k;
        arg[i] = a;
    }

    long time() {
        return lastTime;
    }

    int kind() {
        return lastKind;
    }

    int arg() {
        return lastArg;
    }

    private void grow() {
        int n = time.length * 2;
        time = java.util.Arrays.copyOf(time, n);
        order = java.util.Arrays.copyOf(order, n);
        kind = java.util.Arrays.copyOf(kind, n);
        arg = java.util.Arrays.copyOf(arg, n);
    }
}
