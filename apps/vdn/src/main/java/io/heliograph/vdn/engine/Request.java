package io.heliograph.vdn.engine;

import java.util.Objects;

/**
 * Clients of one client group asking for one object ({@code Request_{l,o} = 1} on the group's dummy
 * link, §4.5). One stream to the group serves all of them (caching or multicast within a client
 * group is assumed, §4.7); {@code clients} counts them for the metrics per client.
 */
public record Request(String clientGroup, VideoObject object, int clients) {

    public Request {
        Objects.requireNonNull(clientGroup, "clientGroup");
        Objects.requireNonNull(object, "object");
        if (clients <= 0) {
            throw new IllegalArgumentException("request of " + clientGroup + " for " + object.key() + ": " + clients
                    + " clients is not positive");
        }
    }
}
