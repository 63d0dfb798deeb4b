package io.heliograph.core.cluster;

import java.util.Optional;
import java.util.function.UnaryOperator;

import io.heliograph.core.testing.ForwardingSharedStore;
import io.heliograph.core.testing.InMemorySharedStore;

/**
 * The contract run against fakes broken on purpose, each as a fake could drift from ZooKeeper's
 * behaviour; {@link SharedStoreContractBitesTest} runs them and expects failures. Not test classes
 * of their own: the build's test run never picks them (nested classes, no "Test" in the name).
 */
final class BrokenInMemoryStores {

    private BrokenInMemoryStores() {
    }

    /** A replace that writes whatever the version. */
    static class ReplaceIgnoresTheVersion extends InMemorySharedStoreContractTest {
        @Override
        SharedStore wrap(InMemorySharedStore instance) {
            return new ForwardingSharedStore(instance) {
                @Override
                public Optional<Versioned> replace(String key, long expectedVersion, byte[] value) {
                    return Optional.of(put(key, value));
                }
            };
        }
    }

    /** An update that reads and writes without checking that nothing came in between. */
    static class UpdateLosesARace extends InMemorySharedStoreContractTest {
        @Override
        SharedStore wrap(InMemorySharedStore instance) {
            return new ForwardingSharedStore(instance) {
                @Override
                public Optional<Versioned> update(String key, UnaryOperator<byte[]> change) {
                    byte[] next = change.apply(get(key).map(Versioned::value).orElse(null));
                    if (next == null) {
                        delete(key);
                        return Optional.empty();
                    }
                    return Optional.of(put(key, next));
                }
            };
        }
    }

    /** A watch that drops removals. */
    static class WatchDropsRemovals extends InMemorySharedStoreContractTest {
        @Override
        SharedStore wrap(InMemorySharedStore instance) {
            return new ForwardingSharedStore(instance) {
                @Override
                public Watch watch(String prefix, StoreListener listener) {
                    return super.watch(prefix, new StoreListener() {
                        @Override
                        public void changed(Versioned value) {
                            listener.changed(value);
                        }

                        @Override
                        public void removed(String key) {
                        }
                    });
                }
            };
        }
    }

    /** A watch that goes on after it was closed. */
    static class ClosedWatchGoesOn extends InMemorySharedStoreContractTest {
        @Override
        SharedStore wrap(InMemorySharedStore instance) {
            return new ForwardingSharedStore(instance) {
                @Override
                public Watch watch(String prefix, StoreListener listener) {
                    super.watch(prefix, listener);
                    return () -> { };
                }
            };
        }
    }

    /** A leader that is never told it leads no more. */
    static class LeaderNeverToldItLost extends InMemorySharedStoreContractTest {
        @Override
        SharedStore wrap(InMemorySharedStore instance) {
            return new ForwardingSharedStore(instance) {
                @Override
                public Watch lead(String name, LeadershipListener listener) {
                    return super.lead(name, leader -> {
                        if (leader) {
                            listener.leadershipChanged(true);
                        }
                    });
                }
            };
        }
    }
}
