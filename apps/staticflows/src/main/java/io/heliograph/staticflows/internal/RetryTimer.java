package io.heliograph.staticflows.internal;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** Time for retries: runs a task once after a delay, and tells the time. The component's scheduler in the controller, a manual one in tests. */
interface RetryTimer {

    Instant now();

    /** Schedules the task; the handle cancels it if it has not run yet. */
    Scheduled schedule(Runnable task, long delayMs);

    /** A scheduled task. */
    @FunctionalInterface
    interface Scheduled {
        void cancel();
    }

    /** On a scheduler, with the system clock; once the scheduler is shut down (the component stopped), nothing more runs. */
    static RetryTimer on(ScheduledExecutorService scheduler) {
        Clock clock = Clock.systemUTC();
        return new RetryTimer() {
            @Override
            public Instant now() {
                return clock.instant();
            }

            @Override
            public Scheduled schedule(Runnable task, long delayMs) {
                try {
                    ScheduledFuture<?> f = scheduler.schedule(task, delayMs, TimeUnit.MILLISECONDS);
                    return () -> f.cancel(false);
                } catch (RejectedExecutionException e) {
                    return () -> { };
                }
            }
        };
    }
}
