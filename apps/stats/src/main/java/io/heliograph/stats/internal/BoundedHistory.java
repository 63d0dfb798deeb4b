package io.heliograph.stats.internal;

import java.util.ArrayDeque;
import java.util.List;

/** The most recent values, oldest first, at most a capacity of them; the capacity can change live. */
final class BoundedHistory<T> {

    private final ArrayDeque<T> values = new ArrayDeque<>();
    private int capacity;

    BoundedHistory(int capacity) {
        setCapacity(capacity);
    }

    synchronized void add(T value) {
        values.addLast(value);
        trim();
    }

    synchronized void setCapacity(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("history capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
        trim();
    }

    synchronized T latest() {
        return values.peekLast();
    }

    synchronized List<T> snapshot() {
        return List.copyOf(values);
    }

    private void trim() {
        while (values.size() > capacity) {
            values.removeFirst();
        }
    }
}
