package io.heliograph.testbed;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When each instance of a cluster acted as master of each switch, from the instances' own logs (the
 * lines of the cluster bundle's mastership election): an instance acts as master of a switch from the
 * switch's confirmation of its MASTER role request ("master (generation N)") until it hands the
 * switch over, sees another master and demotes itself, has its session suspended (every switch at
 * once), is refused by the switch, or the switch disconnects.
 *
 * <p>This is the view that says whether two instances ever wrote as master to one switch at the same
 * time: OVS itself always shows at most one master (a MASTER request makes the previous master a
 * slave) and refreshes the role column of its database only every few seconds. Times are the log
 * lines' (this machine's clock, milliseconds); a start is logged when the switch confirms, a few
 * milliseconds after the instance began acting, so an overlap shorter than that goes unseen.
 */
public final class MastershipTimeline {

    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    private static final String TIME = "^(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3}) ";
    private static final String SWITCH = "switch ([0-9a-f]{2}(?::[0-9a-f]{2}){7}) at \\S+";
    private static final Pattern MASTER = Pattern.compile(TIME + ".*MastershipElection - " + SWITCH
            + ": (?:master \\(generation|the switch did not confirm MASTER)", Pattern.MULTILINE);
    private static final Pattern LETS_GO = Pattern.compile(TIME + ".*MastershipElection - " + SWITCH
            + ": (?:handing mastership over|\\S+ is master now|the switch refused MASTER|its master node \\(generation \\d+\\) is gone)", Pattern.MULTILINE);
    private static final Pattern DISCONNECTED = Pattern.compile(TIME + ".*" + SWITCH + " disconnected$", Pattern.MULTILINE);
    private static final Pattern SUSPENDED = Pattern.compile(TIME + ".*MastershipElection - ZooKeeper session suspended",
            Pattern.MULTILINE);

    /** One instance's stretch as master of one switch; {@code end} is {@link Long#MAX_VALUE} while it lasts. */
    public record Interval(String instance, String dpid, long start, long end) {

        boolean overlaps(Interval other) {
            return start < other.end && other.start < end;
        }

        @Override
        public String toString() {
            return instance + " master of " + dpid + " from " + format(start) + " to "
                    + (end == Long.MAX_VALUE ? "now" : format(end));
        }
    }

    private final List<Interval> intervals;

    private MastershipTimeline(List<Interval> intervals) {
        this.intervals = List.copyOf(intervals);
    }

    /** The timeline of the instances whose logs are given, by instance id. */
    public static MastershipTimeline fromLogs(Map<String, String> logsByInstance) {
        List<Interval> all = new ArrayList<>();
        logsByInstance.forEach((instance, log) -> all.addAll(intervalsOf(instance, log)));
        all.sort(Comparator.comparingLong(Interval::start));
        return new MastershipTimeline(all);
    }

    private record Event(long time, int order, String dpid, boolean starts) {
    }

    private static List<Interval> intervalsOf(String instance, String log) {
        List<Event> events = new ArrayList<>();
        collect(events, MASTER.matcher(log), true);
        collect(events, LETS_GO.matcher(log), false);
        collect(events, DISCONNECTED.matcher(log), false);
        Matcher suspended = SUSPENDED.matcher(log);
        while (suspended.find()) {
            events.add(new Event(epochMillis(suspended.group(1)), suspended.start(), null, false));
        }
        events.sort(Comparator.comparingInt(Event::order)); // the order of the log's lines
        Map<String, Long> since = new HashMap<>();
        List<Interval> intervals = new ArrayList<>();
        for (Event e : events) {
            if (e.starts()) {
                since.putIfAbsent(e.dpid(), e.time());
            } else if (e.dpid() == null) {
                since.forEach((dpid, start) -> intervals.add(new Interval(instance, dpid, start, e.time())));
                since.clear();
            } else {
                Long start = since.remove(e.dpid());
                if (start != null) {
                    intervals.add(new Interval(instance, e.dpid(), start, e.time()));
                }
            }
        }
        since.forEach((dpid, start) -> intervals.add(new Interval(instance, dpid, start, Long.MAX_VALUE)));
        return intervals;
    }

    private static void collect(List<Event> events, Matcher m, boolean starts) {
        while (m.find()) {
            events.add(new Event(epochMillis(m.group(1)), m.start(), m.group(2), starts));
        }
    }

    public List<Interval> intervals() {
        return intervals;
    }

    /**
     * Every pair of stretches in which two different instances acted as master of the same switch at
     * the same time: a split brain. Empty when there was none.
     */
    public List<String> overlaps() {
        List<String> found = new ArrayList<>();
        for (int i = 0; i < intervals.size(); i++) {
            for (int j = i + 1; j < intervals.size(); j++) {
                Interval a = intervals.get(i);
                Interval b = intervals.get(j);
                if (a.dpid().equals(b.dpid()) && !a.instance().equals(b.instance()) && a.overlaps(b)) {
                    found.add(a + " and " + b);
                }
            }
        }
        return found;
    }

    /** The first time after {@code after} (epoch ms) that an instance other than {@code except} became master of {@code dpid}. */
    public Optional<Interval> firstMasterAfter(String dpid, long after, String except) {
        return intervals.stream().filter(i -> i.dpid().equals(dpid) && i.start() > after && !i.instance().equals(except))
                .findFirst();
    }

    /**
     * Switch (dpid) -> the instance acting as its master at {@code time} (epoch ms), for every switch
     * that had one then.
     */
    public Map<String, String> mastersAt(long time) {
        Map<String, String> masters = new TreeMap<>();
        for (Interval i : intervals) {
            if (i.start() <= time && time < i.end()) {
                masters.put(i.dpid(), i.instance());
            }
        }
        return masters;
    }

    /** The stretches of {@code instance} that began after {@code after} (epoch ms). */
    public List<Interval> startedAfter(String instance, long after) {
        return intervals.stream().filter(i -> i.instance().equals(instance) && i.start() > after).toList();
    }

    /**
     * The longest time between {@code from} and {@code to} (epoch ms) in which no instance acted as
     * master of {@code dpid}.
     */
    public long longestWithoutMaster(String dpid, long from, long to) {
        List<Interval> of = intervals.stream().filter(i -> i.dpid().equals(dpid) && i.end() > from && i.start() < to)
                .toList();
        long longest = 0;
        long covered = from;
        for (Interval i : of) { // by start
            if (i.start() > covered) {
                longest = Math.max(longest, i.start() - covered);
            }
            covered = Math.max(covered, i.end());
        }
        if (covered < to) {
            longest = Math.max(longest, to - covered);
        }
        return longest;
    }

    /** A log line's time, in epoch milliseconds of this machine's time zone. */
    public static long epochMillis(String logTime) {
        return LocalDateTime.parse(logTime, LOG_TIME).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
    }

    /** "00:00:00:00:00:00:00:03", as the logs write a datapath id. */
    public static String dpid(long datapathId) {
        String hex = String.format("%016x", datapathId);
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 16; i += 2) {
            s.append(i == 0 ? "" : ":").append(hex, i, i + 2);
        }
        return s.toString();
    }

    private static String format(long epochMillis) {
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneId.systemDefault())
                .format(LOG_TIME);
    }
}
