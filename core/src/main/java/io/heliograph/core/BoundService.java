package io.heliograph.core;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The instance bound now of an optional, dynamic service reference, for the runtime that reads it:
 * the component's bind/unbind method pair hands each instance here. A GREEDY reference replaces a
 * service by binding the new one before unbinding the old, so unbinding clears only the instance
 * that is still current.
 *
 * @param <T> the service
 */
public final class BoundService<T> implements Supplier<T> {

    private final AtomicReference<T> current = new AtomicReference<>();

    /** The service bound now, or null. */
    @Override
    public T get() {
        return current.get();
    }

    public void bind(T service) {
        current.set(service);
    }

    /** True when {@code service} was the current one (it is gone now); false when another replaced it. */
    public boolean unbind(T service) {
        return current.compareAndSet(service, null);
    }
}
