package io.heliograph.virtue.engine;

/**
 * One thing wrong with an input, at the JSON path of the member it is about ({@code $.pms[1].vms.vm0003},
 * {@code $.routes[2].linkIds[1]}), or at the line and column of malformed text.
 */
public record Problem(String path, String message) {

    @Override
    public String toString() {
        return path + ": " + message;
    }
}
