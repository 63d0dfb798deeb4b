package io.heliograph.vdn.engine;

import java.util.Objects;

/**
 * An object of the optimiser (§4.5): one video (channel) at one of its bitrates, with the operator's
 * priority (greater than 0; 1 by default). Its key {@code video/bitrate} is the channel prefix of RIB
 * and FIB entries.
 */
public record VideoObject(String video, int bitrateKbps, double priority) {

    public VideoObject {
        Objects.requireNonNull(video, "video");
        if (video.isBlank() || video.contains("/")) {
            throw new IllegalArgumentException("video '" + video + "': a video's name is not blank and has no '/'");
        }
        if (bitrateKbps <= 0) {
            throw new IllegalArgumentException("video " + video + ": bitrate " + bitrateKbps + " kbit/s is not positive");
        }
        if (!Double.isFinite(priority) || priority <= 0) {
            throw new IllegalArgumentException("video " + video + "/" + bitrateKbps + ": priority " + priority
                    + " is not a finite number above 0");
        }
    }

    public VideoObject(String video, int bitrateKbps) {
        this(video, bitrateKbps, 1);
    }

    /** {@code video/bitrate}. */
    public String key() {
        return video + "/" + bitrateKbps;
    }
}
