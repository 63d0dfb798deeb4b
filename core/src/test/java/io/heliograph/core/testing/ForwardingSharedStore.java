package io.heliograph.core.testing;

import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import io.heliograph.core.cluster.SharedStore;

/** A store that passes every call on to another; a test overrides the calls it wants to step into. */
public class ForwardingSharedStore implements SharedStore {
    private final SharedStore store;

    public ForwardingSharedStore(SharedStore store) {
        this.store = store;
    }

    @Override
    public Optional<Versioned> get(String key) {
        return store.get(key);
    }

    @Override
    public Versioned put(String key, byte[] value) {
        return store.put(key, value);
    }

    @Override
    public Optional<Versioned> replace(String key, long expectedVersion, byte[] value) {
        return store.replace(key, expectedVersion, value);
    }

    @Override
    public Optional<Versioned> update(String key, UnaryOperator<byte[]> change) {
        return store.update(key, change);
    }

    @Override
    public boolean delete(String key) {
        return store.delete(key);
    }

    @Override
    public Map<String, Versioned> list(String parent) {
        return store.list(parent);
    }

    @Override
    public Watch watch(String prefix, StoreListener listener) {
        return store.watch(prefix, listener);
    }

    @Override
    public Watch lead(String name, LeadershipListener listener) {
        return store.lead(name, listener);
    }
}
