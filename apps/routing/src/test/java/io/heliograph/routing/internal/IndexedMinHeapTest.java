package io.heliograph.routing.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class IndexedMinHeapTest {

    @Test
    void nodesComeOutByKeyThenByIndexAfterAnyMixOfInsertsAndDecreases() {
        Random random = new Random(7);
        for (int round = 0; round < 100; round++) {
            int n = 1 + random.nextInt(60);
            IndexedMinHeap heap = new IndexedMinHeap(n);
            double[] key = new double[n];
            for (int i = 0; i < n; i++) {
                key[i] = random.nextInt(10);
                heap.offer(i, key[i]);
            }
            for (int change = 0; change < n; change++) {
                int node = random.nextInt(n);
                double lower = key[node] - random.nextInt(3);
                heap.offer(node, lower + 5); // higher: ignored, as decrease-key only lowers
                heap.offer(node, lower);
                key[node] = Math.min(key[node], lower);
            }
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                expected.add(i);
            }
            expected.sort(Comparator.<Integer>comparingDouble(i -> key[i]).thenComparing(i -> i));

            List<Integer> polled = new ArrayList<>();
            while (!heap.isEmpty()) {
                polled.add(heap.poll());
            }

            assertEquals(expected, polled, "round " + round);
        }
    }

    @Test
    void aPolledNodeCanBeOfferedAgain() {
        IndexedMinHeap heap = new IndexedMinHeap(2);
        heap.offer(1, 3);
        assertEquals(1, heap.poll());
        assertTrue(heap.isEmpty());
        heap.offer(1, 9);
        heap.offer(0, 10);
        assertEquals(1, heap.poll());
        assertEquals(0, heap.poll());
    }
}
