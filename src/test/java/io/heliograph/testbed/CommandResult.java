package io.heliograph.testbed;

import java.util.List;

/** What a finished {@link Command} did. */
public record CommandResult(List<String> argv, int exitCode, String stdout, String stderr) {

    public boolean succeeded() {
        return exitCode == 0;
    }

    public CommandResult requireSuccess() {
        if (!succeeded()) {
            throw new CommandFailedException(String.format("%s exited with %d%nstderr: %s%nstdout: %s",
                    String.join(" ", argv), exitCode, stderr.strip(), stdout.strip()));
        }
        return this;
    }
}
