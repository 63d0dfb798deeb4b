package io.heliograph.vdn.internal;

import io.heliograph.vdn.engine.CentralOptimiser;
import java.time.Duration;

/**
 * The VDN app's settings, checked as a whole: a bad value is refused with an IllegalArgumentException
 * naming it, so {@code ConfiguredSettings} keeps the settings in force.
 *
 * @param periodSeconds            how often the central optimiser decides (the thesis: about once a minute)
 * @param timeLimitSeconds         the optimiser's time limit, within the period
 * @param gapPercent               the optimiser stops at this relative gap
 * @param workers                  the optimiser's solver threads
 * @param stalePercent             an agent finds a central entry stale when a link of its evidence changed by more
 * @param controllerTimeoutSeconds an agent without a new RIB for this long goes purely distributed
 * @param shadowVersions           the older RIB versions an agent keeps to forward old-version requests
 * @param reportTimeoutSeconds     a cluster's report older than this is left out of a decision
 */
record VdnSettings(long periodSeconds, long timeLimitSeconds, double gapPercent, int workers, int stalePercent,
        long controllerTimeoutSeconds, int shadowVersions, long reportTimeoutSeconds) {

    static final VdnSettings DEFAULTS = new VdnSettings(60, 50, 1, 2, 20, 120, 3, 180);
    static final long MAX_SECONDS = 86_400;

    VdnSettings {
        seconds("periodSeconds", periodSeconds, 1);
        seconds("timeLimitSeconds", timeLimitSeconds, 1);
        if (timeLimitSeconds > periodSeconds) {
            throw new IllegalArgumentException("timeLimitSeconds (" + timeLimitSeconds + ") must be at most periodSeconds ("
                    + periodSeconds + "): a decision ends before the next begins");
        }
        if (!(gapPercent >= 0 && gapPercent <= 100)) {
            throw new IllegalArgumentException("gapPercent must be from 0 to 100, not " + gapPercent);
        }
        if (workers < 1 || workers > CentralOptimiser.Options.MAX_WORKERS) {
            throw new IllegalArgumentException("workers must be from 1 to " + CentralOptimiser.Options.MAX_WORKERS
                    + ", not " + workers);
        }
        if (stalePercent < 1 || stalePercent > 100) {
            throw new IllegalArgumentException("stalePercent must be from 1 to 100, not " + stalePercent);
        }
        seconds("controllerTimeoutSeconds", controllerTimeoutSeconds, periodSeconds);
        if (shadowVersions < 0 || shadowVersions > 16) {
            throw new IllegalArgumentException("shadowVersions must be from 0 to 16, not " + shadowVersions);
        }
        seconds("reportTimeoutSeconds", reportTimeoutSeconds, 1);
    }

    /** The central optimiser's options: these limits, and its default bound on the exact program. */
    CentralOptimiser.Options optimiserOptions() {
        return new CentralOptimiser.Options(Duration.ofSeconds(timeLimitSeconds), gapPercent / 100, workers,
                CentralOptimiser.Options.DEFAULT.exactVariables());
    }

    private static void seconds(String name, long value, long min) {
        if (value < min || value > MAX_SECONDS) {
            throw new IllegalArgumentException(name + " must be from " + min + " to " + MAX_SECONDS + ", not " + value);
        }
    }
}
