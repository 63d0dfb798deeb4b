package io.heliograph.routing.internal;

import java.util.Arrays;

/**
 * A binary min-heap of node indices 0..n-1 keyed by a distance, with decrease-key, for Dijkstra.
 * Equal keys come out in node order (dpid order), which keeps searches deterministic.
 */
final class IndexedMinHeap {

    private final int[] heap;
    private final int[] position;
    private final double[] key;
    private int size;

    IndexedMinHeap(int capacity) {
        heap = new int[capacity];
        position = new int[capacity];
        key = new double[capacity];
        Arrays.fill(position, -1);
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Inserts the node, or lowers its key if it is already in the heap with a higher one. */
    void offer(int node, double newKey) {
        if (position[node] < 0) {
            key[node] = newKey;
            heap[size] = node;
            position[node] = size;
            siftUp(size++);
        } else if (newKey < key[node]) {
            key[node] = newKey;
            siftUp(position[node]);
        }
    }

    int poll() {
        int top = heap[0];
        position[top] = -1;
        size--;
        if (size > 0) {
            heap[0] = heap[size];
            position[heap[0]] = 0;
            siftDown(0);
        }
        return top;
    }

    private boolean less(int a, int b) {
        return key[a] < key[b] || key[a] == key[b] && a < b;
    }

    private void siftUp(int i) {
        int node = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(node, heap[parent])) {
                break;
            }
            place(heap[parent], i);
            i = parent;
        }
        place(node, i);
    }

    private void siftDown(int i) {
        int node = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && less(heap[child + 1], heap[child])) {
                child++;
            }
            if (!less(heap[child], node)) {
                break;
            }
            place(heap[child], i);
            i = child;
        }
        place(node, i);
    }

    private void place(int node, int i) {
        heap[i] = node;
        position[node] = i;
    }
}
