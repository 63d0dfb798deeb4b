package io.heliograph.core.cluster;

import java.time.Instant;

/**
 * One controller instance of the cluster, as it registered itself in ZooKeeper.
 *
 * @param id              the instance id ({@code --instance-id}, or generated once per data directory)
 * @param openflowAddress where switches reach it, {@code host:port}
 * @param httpAddress     its REST API and web UI, {@code host:port}
 * @param version         the Heliograph version it runs
 * @param started         when it joined
 */
public record ClusterInstance(String id, String openflowAddress, String httpAddress, String version,
                              Instant started) {
}
