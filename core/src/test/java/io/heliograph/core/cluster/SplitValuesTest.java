package io.heliograph.core.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import io.heliograph.core.testing.ForwardingSharedStore;
import io.heliograph.core.testing.InMemorySharedStore;

class SplitValuesTest {

    private final InMemorySharedStore store = new InMemorySharedStore();

    private static byte[] bytes(int length, long seed) {
        byte[] value = new byte[length];
        new Random(seed).nextBytes(value);
        return value;
    }

    @Test
    void aValueLargerThanOneStoreValueIsCutIntoPartsAndReadBackWhole() {
        byte[] value = bytes(SplitValues.PART_BYTES * 2 + 17, 1);
        assertEquals(3, SplitValues.write(store, "app/results/r1", value));
        assertArrayEquals(value, SplitValues.read(store, "app/results/r1").orElseThrow());
        for (SharedStore.Versioned part : store.list("app/results/r1").values()) {
            assertTrue(part.value().length <= SharedStore.MAX_VALUE_BYTES, part.key());
        }
    }

    @Test
    void anEmptyValueTakesNoPartAndASmallOneOne() {
        assertEquals(0, SplitValues.write(store, "a/empty", new byte[0]));
        assertArrayEquals(new byte[0], SplitValues.read(store, "a/empty").orElseThrow());
        assertEquals(1, SplitValues.write(store, "a/small", "hello".getBytes()));
        assertArrayEquals("hello".getBytes(), SplitValues.read(store, "a/small").orElseThrow());
        assertEquals(Optional.empty(), SplitValues.read(store, "a/absent"));
    }

    @Test
    void aRewriteLeavesOnlyTheNewPartsAndDeletingTheKeyRemovesThemAll() {
        SplitValues.write(store, "a/v", bytes(SplitValues.PART_BYTES * 3, 2));
        byte[] shorter = bytes(10, 3);
        SplitValues.write(store, "a/v", shorter);
        assertArrayEquals(shorter, SplitValues.read(store, "a/v").orElseThrow());
        assertEquals(1, store.list("a/v").size(), "the old generation's parts are gone: " + store.list("a/v").keySet());
        assertTrue(store.delete("a/v"));
        assertTrue(store.list("a/v").isEmpty());
        assertEquals(Optional.empty(), SplitValues.read(store, "a/v"));
    }

    @Test
    void aReaderThatFindsItsPartsReplacedReadsTheNewerValueInstead() {
        byte[] first = bytes(SplitValues.PART_BYTES + 5, 4);
        byte[] second = bytes(SplitValues.PART_BYTES + 9, 5);
        SplitValues.write(store, "a/v", first);
        AtomicBoolean raced = new AtomicBoolean();
        // a writer comes in between the reader's read of the manifest and its read of the parts
        SharedStore racing = new ForwardingSharedStore(store) {
            @Override
            public Map<String, Versioned> list(String parent) {
                if (raced.compareAndSet(false, true)) {
                    SplitValues.write(store, "a/v", second);
                }
                return super.list(parent);
            }
        };
        assertArrayEquals(second, SplitValues.read(racing, "a/v").orElseThrow());
        assertTrue(raced.get());
    }

    @Test
    void aKeyThatHoldsSomethingElseOrCorruptPartsIsAnErrorNotAValue() {
        store.put("a/plain", "{\"json\":true}".getBytes());
        IllegalStateException plain = assertThrows(IllegalStateException.class, () -> SplitValues.read(store, "a/plain"));
        assertTrue(plain.getMessage().contains("does not hold a split value"), plain.getMessage());

        SplitValues.write(store, "a/v", bytes(100, 6));
        String part = store.list("a/v").keySet().iterator().next();
        store.put("a/v/" + part, bytes(100, 7));
        IllegalStateException corrupt = assertThrows(IllegalStateException.class, () -> SplitValues.read(store, "a/v"));
        assertTrue(corrupt.getMessage().contains("do not make the value"), corrupt.getMessage());
    }
}
