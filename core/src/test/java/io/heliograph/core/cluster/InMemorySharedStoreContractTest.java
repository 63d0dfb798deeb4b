package io.heliograph.core.cluster;

import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;

import io.heliograph.core.testing.InMemorySharedStore;
import io.heliograph.core.testing.SharedStoreContract;

/** The SharedStore contract on the test fake, whose instances share one in-memory store. */
class InMemorySharedStoreContractTest extends SharedStoreContract {

    private final InMemorySharedStore data = new InMemorySharedStore();
    /** Each instance the contract uses, by what it sees of it (the fake itself, or a broken wrapper). */
    private final Map<SharedStore, InMemorySharedStore> instances = new IdentityHashMap<>();

    @Override
    protected SharedStore instance(String name) {
        InMemorySharedStore instance = data.anotherInstance(name);
        SharedStore seen = wrap(instance);
        instances.put(seen, instance);
        return seen;
    }

    /** The store the contract sees: the fake itself; {@link BrokenInMemoryStores} break it here. */
    SharedStore wrap(InMemorySharedStore instance) {
        return instance;
    }

    @Override
    protected void loseSessions() {
        instances.values().forEach(i -> i.setAvailable(false));
    }

    @Override
    protected void restoreSessions() {
        instances.values().forEach(i -> i.setAvailable(true));
    }

    @Override
    protected void expireSession(SharedStore instance) {
        InMemorySharedStore expired = instances.get(instance);
        expired.setAvailable(false);
        expired.setAvailable(true);
    }

    /** The fake delivers events before the call that caused them returns: no need to wait long. */
    @Override
    protected Duration eventWait() {
        return Duration.ofMillis(50);
    }
}
