package io.heliograph.launcher.zookeeper;

import java.util.List;
import java.util.regex.Pattern;

import io.heliograph.launcher.LaunchOptions.UsageException;

/**
 * One server of a ZooKeeper ensemble as {@code --ensemble} names it:
 * {@code HOST:PEERPORT:ELECTIONPORT:CLIENTPORT}. The peer port carries the quorum's traffic between
 * servers, the election port the leader election, the client port the clients (the controllers).
 */
public record EnsembleMember(String host, int peerPort, int electionPort, int clientPort) {

    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._-]+");

    /** {@code HOST:PEERPORT:ELECTIONPORT:CLIENTPORT}; the error names {@code option} and the part. */
    static EnsembleMember parse(String option, String part) throws UsageException {
        String[] fields = part.split(":", -1);
        if (fields.length != 4 || !HOST.matcher(fields[0]).matches()) {
            throw new UsageException(option + " takes HOST:PEERPORT:ELECTIONPORT:CLIENTPORT,...; '" + part
                    + "' is not that");
        }
        List<String> names = List.of("peer", "election", "client");
        int[] ports = new int[3];
        for (int i = 0; i < 3; i++) {
            String port = fields[i + 1];
            ports[i] = port.matches("[0-9]{1,5}") ? Integer.parseInt(port) : 0;
            if (ports[i] < 1 || ports[i] > 65535) {
                throw new UsageException(option + ": in '" + part + "' the " + names.get(i)
                        + " port must be 1-65535, got '" + port + "'");
            }
        }
        return new EnsembleMember(fields[0], ports[0], ports[1], ports[2]);
    }

    /** As zoo.cfg's {@code server.N} line wants it: {@code host:peerPort:electionPort}. */
    String quorumAddress() {
        return host + ":" + peerPort + ":" + electionPort;
    }

    String clientAddress() {
        return host + ":" + clientPort;
    }

    @Override
    public String toString() {
        return host + ":" + peerPort + ":" + electionPort + ":" + clientPort;
    }
}
