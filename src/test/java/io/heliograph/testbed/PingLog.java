package io.heliograph.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The output of a continuous {@code ping -n -O} written to a file, read while it runs or after.
 * {@code -O} prints "no answer yet" for every ping not answered before the next is sent, including
 * replies that are merely late, so what was lost is counted from the replies, not from those lines.
 */
public final class PingLog {

    private static final Pattern ICMP_SEQ = Pattern.compile("icmp_seq=(\\d+)");

    private final Path file;

    public PingLog(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /** How many replies arrived so far. */
    public long answered() {
        return lines().stream().filter(l -> l.contains("bytes from")).count();
    }

    /** The highest sequence number ping reported so far (sent or answered), 0 before the first. */
    public int lastSeq() {
        return lines().stream().map(ICMP_SEQ::matcher).filter(Matcher::find)
                .mapToInt(m -> Integer.parseInt(m.group(1))).max().orElse(0);
    }

    /** The highest sequence number answered so far, 0 before the first reply. */
    public int lastAnswered() {
        return lines().stream().filter(l -> l.contains("bytes from")).map(ICMP_SEQ::matcher).filter(Matcher::find)
                .mapToInt(m -> Integer.parseInt(m.group(1))).max().orElse(0);
    }

    /** The pings from {@code firstSeq} on that were never answered, up to the last answered one. */
    public List<Integer> lost(int firstSeq) {
        Set<Integer> answered = new TreeSet<>();
        for (String line : lines()) {
            Matcher m = ICMP_SEQ.matcher(line);
            if (line.contains("bytes from") && m.find()) {
                answered.add(Integer.parseInt(m.group(1)));
            }
        }
        int lastAnswered = answered.stream().mapToInt(Integer::intValue).max().orElse(0);
        List<Integer> lost = new ArrayList<>();
        for (int seq = firstSeq; seq < lastAnswered; seq++) {
            if (!answered.contains(seq)) {
                lost.add(seq);
            }
        }
        return lost;
    }

    private List<String> lines() {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
