package io.heliograph.circuit.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Solstice (Liu et al., CoNEXT 2015) as Etalon runs it (spec §2.3): the most demand that fits one week,
 * scheduled as few days as skew and sparsity allow. The pipeline, each step a method:
 * <ol>
 * <li>{@link #fitWeek}: water-filling, every open entry growing together until its row or column has
 * used one week of circuit, or it is all served; the rest is leftover for the packet switch;</li>
 * <li>{@link #trim}: entries too small to fill one minimum day go to the packet switch too;</li>
 * <li>{@link #align}: bytes to whole microseconds of circuit, at least 1;</li>
 * <li>{@link #stuff}: made doubly stochastic (every row and column summing to the largest), first by
 * growing existing entries in random order, then by pairing unsaturated rows and columns, so the
 * matrix stays skewed;</li>
 * <li>{@link #decompose}: Birkhoff-von Neumann slicing with a threshold that halves from the first power
 * of two times {@code max(minimum day, 2 nights)} at or above a quarter week down to that base: each
 * perfect matching over the entries at or above the threshold becomes a day as long as its smallest
 * entry (plus the night);</li>
 * <li>{@link #scale}: the days stretched or shaved (dropping the shortest while more than fit) so they
 * sum to exactly one week, none below the shortest day;</li>
 * <li>throttle: a pair's circuit rate while up is its scheduled demand over its circuit time, clamped to
 * [circuit - packet, circuit].</li>
 * </ol>
 * The random order of stuffing and of the greedy matchings comes from the seed.
 *
 * <p>Two options of Etalon's Click wrapper (spec §2.3), applied to the demand before step 1:
 * <ul>
 * <li>the per-entry cap ({@link #entryCap()}, on by default as in the wrapper): every entry at most
 * {@code week * (circuit + packet)} bytes, what a rack pair could send in a week over both switches.
 * Alone it changes nothing, since water-filling never gives an entry more than a week of circuit; with
 * the scaling it keeps one absurd entry from shrinking all the others;</li>
 * <li>the half-week scaling ({@link #halfWeekScaling()}, off by default: the thesis never mentions it):
 * the whole matrix scaled, up or down, so that its largest row or column sum is half a week of circuit,
 * which lets Solstice give small flows circuits so that TCP grows (the code's comment).</li>
 * </ul>
 * Either way what the circuits carry and the leftover are of the demand as given: circuit plus leftover
 * is the demand.
 */
public final class Solstice implements Scheduler {

    private final boolean entryCap;
    private final boolean halfWeekScaling;

    /** Etalon's wrapper: the per-entry cap on, no half-week scaling. */
    public Solstice() {
        this(true, false);
    }

    public Solstice(boolean entryCap, boolean halfWeekScaling) {
        this.entryCap = entryCap;
        this.halfWeekScaling = halfWeekScaling;
    }

    public boolean entryCap() {
        return entryCap;
    }

    public boolean halfWeekScaling() {
        return halfWeekScaling;
    }

    @Override
    public String name() {
        return "solstice";
    }

    /** The demand Solstice's pipeline takes: capped per entry and scaled to half a week, as configured. */
    double[][] prepare(double[][] demand, CircuitParameters network) {
        int n = demand.length;
        double cap = entryCap ? network.weekMicros() * (network.circuitBytesPerMicro() + network.packetBytesPerMicro())
                : Double.POSITIVE_INFINITY;
        double[][] prepared = new double[n][n];
        double[] row = new double[n];
        double[] column = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                prepared[i][j] = Math.min(cap, demand[i][j]);
                row[i] += prepared[i][j];
                column[j] += prepared[i][j];
            }
        }
        if (halfWeekScaling) {
            double largest = 0;
            for (int k = 0; k < n; k++) {
                largest = Math.max(largest, Math.max(row[k], column[k]));
            }
            if (largest > 0) {
                double factor = network.weekMicros() * network.circuitBytesPerMicro() / 2 / largest;
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < n; j++) {
                        prepared[i][j] *= factor;
                    }
                }
            }
        }
        return prepared;
    }

    @Override
    public Schedule schedule(double[][] demand, CircuitParameters network, long seed) {
        Scheduler.check(demand, network);
        SplittableRandom random = new SplittableRandom(seed);
        int n = network.racks();
        double[][] fitted = fitWeek(prepare(demand, network), network.circuitBytesPerMicro() * network.weekMicros());
        long[][] target = align(trim(fitted, network.circuitBytesPerMicro() * network.minDayMicros()),
                network.circuitBytesPerMicro());
        long[][] stuffed = stuff(target, random);
        List<Day> days = scale(decompose(stuffed, target, network, random), network);
        double[][] time = Schedule.circuitMicros(days, n, network.nightMicros());
        double[][] rate = new double[n][n];
        double circuit = network.circuitBytesPerMicro();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (time[i][j] > 0) {
                    rate[i][j] = Math.max(circuit - network.packetBytesPerMicro(),
                            Math.min(circuit, fitted[i][j] / time[i][j]));
                }
            }
        }
        return Schedule.of(days, demand, network, rate);
    }

    /**
     * Step 1: the demand that fits one week of {@code budget} bytes per row and per column, by water-filling:
     * every open entry grows at the same rate, so all of them stand at one common level, and an entry
     * freezes at that level when it is all served or its row or column has used its budget. Rather than
     * stepping every entry a round at a time (O(N^2) a round), it goes from event to event, the next
     * entry served (from the entries sorted by demand) or the next row or column full (a row's use is
     * what froze in it plus its open entries times the level): O(E log E + events x N) for E entries.
     */
    static double[][] fitWeek(double[][] demand, double budget) {
        int n = demand.length;
        double tiny = budget * 1e-12;
        double[][] fitted = new double[n][n];
        int entries = 0;
        int[] rowCount = new int[n];
        int[] columnCount = new int[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (demand[i][j] > tiny) {
                    entries++;
                    rowCount[i]++;
                    columnCount[j]++;
                }
            }
        }
        if (entries == 0) {
            return fitted;
        }
        // Entry e is (entryRow[e], entryColumn[e]); the entries of row i are rowEntries[rowStart[i] ..
        // rowStart[i + 1]), those of column j columnEntries[columnStart[j] .. columnStart[j + 1]).
        int[] entryRow = new int[entries];
        int[] entryColumn = new int[entries];
        double[] size = new double[entries];
        int[] rowStart = new int[n + 1];
        int[] columnStart = new int[n + 1];
        for (int k = 0; k < n; k++) {
            rowStart[k + 1] = rowStart[k] + rowCount[k];
            columnStart[k + 1] = columnStart[k] + columnCount[k];
        }
        int[] columnEntries = new int[entries];
        int[] columnFill = columnStart.clone();
        int e = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (demand[i][j] > tiny) {
                    entryRow[e] = i;
                    entryColumn[e] = j;
                    size[e] = demand[i][j];
                    columnEntries[columnFill[j]++] = e;
                    e++;
                }
            }
        }
        Integer[] boxed = new Integer[entries];
        for (int k = 0; k < entries; k++) {
            boxed[k] = k;
        }
        Arrays.sort(boxed, Comparator.comparingDouble(k -> size[k]));
        boolean[] frozen = new boolean[entries];
        int[] rowOpen = rowCount.clone();
        int[] columnOpen = columnCount.clone();
        double[] rowFrozen = new double[n];
        double[] columnFrozen = new double[n];
        int open = entries;
        int next = 0;
        double level = 0;
        while (open > 0) {
            while (frozen[boxed[next]]) {
                next++;
            }
            double step = size[boxed[next]] - level;
            for (int k = 0; k < n; k++) {
                if (rowOpen[k] > 0) {
                    step = Math.min(step, (budget - rowFrozen[k] - rowOpen[k] * level) / rowOpen[k]);
                }
                if (columnOpen[k] > 0) {
                    step = Math.min(step, (budget - columnFrozen[k] - columnOpen[k] * level) / columnOpen[k]);
                }
            }
            level += Math.max(0, step);
            // The entry that set the step (or any served within tiny of it) freezes; then full rows and columns.
            for (int k = next; k < entries && size[boxed[k]] - level <= tiny; k++) {
                if (!frozen[boxed[k]]) {
                    open -= freeze(boxed[k], size[boxed[k]], entryRow, entryColumn, frozen, fitted, rowOpen, columnOpen,
                            rowFrozen, columnFrozen);
                }
            }
            for (int k = 0; k < n; k++) {
                if (rowOpen[k] > 0 && budget - rowFrozen[k] - rowOpen[k] * level <= tiny) {
                    for (int f = rowStart[k]; f < rowStart[k + 1]; f++) {
                        if (!frozen[f]) {
                            open -= freeze(f, level, entryRow, entryColumn, frozen, fitted, rowOpen, columnOpen, rowFrozen,
                                    columnFrozen);
                        }
                    }
                }
                if (columnOpen[k] > 0 && budget - columnFrozen[k] - columnOpen[k] * level <= tiny) {
                    for (int c = columnStart[k]; c < columnStart[k + 1]; c++) {
                        int f = columnEntries[c];
                        if (!frozen[f]) {
                            open -= freeze(f, level, entryRow, entryColumn, frozen, fitted, rowOpen, columnOpen, rowFrozen,
                                    columnFrozen);
                        }
                    }
                }
            }
        }
        return fitted;
    }

    /** Entry e stops growing at {@code value}; returns 1, the entries that closed. */
    private static int freeze(int e, double value, int[] entryRow, int[] entryColumn, boolean[] frozen, double[][] fitted,
                              int[] rowOpen, int[] columnOpen, double[] rowFrozen, double[] columnFrozen) {
        int i = entryRow[e];
        int j = entryColumn[e];
        frozen[e] = true;
        fitted[i][j] = value;
        rowOpen[i]--;
        columnOpen[j]--;
        rowFrozen[i] += value;
        columnFrozen[j] += value;
        return 1;
    }

    /** Step 2: entries that would not fill one minimum day of circuit ({@code least} bytes) are dropped. */
    static double[][] trim(double[][] fitted, double least) {
        int n = fitted.length;
        double[][] kept = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                kept[i][j] = fitted[i][j] > least ? fitted[i][j] : 0;
            }
        }
        return kept;
    }

    /** Step 3: bytes to whole microseconds of circuit at {@code rate} bytes a microsecond, at least 1. */
    static long[][] align(double[][] bytes, double rate) {
        int n = bytes.length;
        long[][] micros = new long[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                micros[i][j] = bytes[i][j] > 0 ? Math.max(1, Math.round(bytes[i][j] / rate)) : 0;
            }
        }
        return micros;
    }

    /** Step 4: every row and column raised to the largest row or column sum, keeping the matrix skewed. */
    static long[][] stuff(long[][] target, SplittableRandom random) {
        int n = target.length;
        long[][] stuffed = new long[n][];
        for (int i = 0; i < n; i++) {
            stuffed[i] = target[i].clone();
        }
        long[] row = new long[n];
        long[] column = new long[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                row[i] += stuffed[i][j];
                column[j] += stuffed[i][j];
            }
        }
        long norm = 0;
        for (int k = 0; k < n; k++) {
            norm = Math.max(norm, Math.max(row[k], column[k]));
        }
        List<int[]> entries = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (stuffed[i][j] > 0) {
                    entries.add(new int[] {i, j});
                }
            }
        }
        shuffle(entries, random);
        for (int[] entry : entries) {
            add(stuffed, row, column, entry[0], entry[1], Math.min(norm - row[entry[0]], norm - column[entry[1]]));
        }
        Integer[] rows = IntStream.range(0, n).boxed().sorted(Comparator.comparingLong(k -> row[k])).toArray(Integer[]::new);
        Integer[] columns = IntStream.range(0, n).boxed().sorted(Comparator.comparingLong(k -> column[k]))
                .toArray(Integer[]::new);
        int r = 0;
        int c = 0;
        while (r < n && c < n) {
            if (row[rows[r]] == norm) {
                r++;
            } else if (column[columns[c]] == norm) {
                c++;
            } else {
                add(stuffed, row, column, rows[r], columns[c], Math.min(norm - row[rows[r]], norm - column[columns[c]]));
            }
        }
        return stuffed;
    }

    private static void add(long[][] matrix, long[] row, long[] column, int i, int j, long amount) {
        matrix[i][j] += amount;
        row[i] += amount;
        column[j] += amount;
    }

    /** Step 5: perfect matchings sliced off at halving thresholds; the days, each as long as its slice plus the night. */
    static List<Day> decompose(long[][] stuffed, long[][] target, CircuitParameters network, SplittableRandom random) {
        int n = stuffed.length;
        long[][] left = new long[n][];
        for (int i = 0; i < n; i++) {
            left[i] = stuffed[i].clone();
        }
        long base = network.shortestDay();
        long threshold = base;
        while (threshold < network.weekMicros() / 4) {
            threshold *= 2;
        }
        List<Day> days = new ArrayList<>();
        for (; threshold >= base; threshold /= 2) {
            while (true) {
                int[] sourceOf = perfectMatching(left, threshold, random);
                if (sourceOf == null) {
                    break;
                }
                long slice = Long.MAX_VALUE;
                for (int j = 0; j < n; j++) {
                    slice = Math.min(slice, left[sourceOf[j]][j]);
                }
                boolean[] dummy = new boolean[n];
                for (int j = 0; j < n; j++) {
                    left[sourceOf[j]][j] -= slice;
                    dummy[j] = target[sourceOf[j]][j] == 0;
                }
                days.add(new Day(slice + network.nightMicros(), sourceOf, dummy));
            }
        }
        return days;
    }

    /**
     * A perfect matching over the entries of at least {@code threshold}, output j to source {@code [j]}: a
     * random greedy maximal matching completed by augmenting paths; null when there is none.
     */
    static int[] perfectMatching(long[][] left, long threshold, SplittableRandom random) {
        int n = left.length;
        int[] sourceOf = new int[n];
        int[] columnOf = new int[n];
        Arrays.fill(sourceOf, -1);
        Arrays.fill(columnOf, -1);
        List<Integer> rows = new ArrayList<>(IntStream.range(0, n).boxed().toList());
        shuffle(rows, random);
        for (int i : rows) {
            List<Integer> free = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                if (sourceOf[j] < 0 && left[i][j] >= threshold) {
                    free.add(j);
                }
            }
            if (!free.isEmpty()) {
                int j = free.get(random.nextInt(free.size()));
                sourceOf[j] = i;
                columnOf[i] = j;
            }
        }
        for (int i = 0; i < n; i++) {
            if (columnOf[i] < 0 && !augment(i, left, threshold, sourceOf, columnOf, new boolean[n])) {
                return null;
            }
        }
        return sourceOf;
    }

    private static boolean augment(int i, long[][] left, long threshold, int[] sourceOf, int[] columnOf, boolean[] seen) {
        for (int j = 0; j < left.length; j++) {
            if (left[i][j] >= threshold && !seen[j]) {
                seen[j] = true;
                if (sourceOf[j] < 0 || augment(sourceOf[j], left, threshold, sourceOf, columnOf, seen)) {
                    sourceOf[j] = i;
                    columnOf[i] = j;
                    return true;
                }
            }
        }
        return false;
    }

    /** Step 6: the days made to sum to exactly one week, none shorter than the shortest day. */
    static List<Day> scale(List<Day> sliced, CircuitParameters network) {
        int n = network.racks();
        long week = network.weekMicros();
        long shortest = network.shortestDay();
        List<Day> days = new ArrayList<>(sliced);
        if (days.isEmpty()) {
            int[] sourceOf = new int[n];
            boolean[] dummy = new boolean[n];
            for (int j = 0; j < n; j++) {
                sourceOf[j] = (j + n - 1) % n;
                dummy[j] = true;
            }
            return List.of(new Day(week, sourceOf, dummy));
        }
        long total = days.stream().mapToLong(Day::micros).sum();
        if (total > week) {
            long fit = week / shortest;
            while (days.size() > fit) {
                Day smallest = days.stream().min(Comparator.comparingLong(Day::micros)).orElseThrow();
                days.remove(smallest);
                total -= smallest.micros();
            }
            long[] micros = days.stream().mapToLong(Day::micros).toArray();
            for (int k = 0; total > week; k = (k + 1) % micros.length) {
                if (micros[k] > shortest) {
                    micros[k]--;
                    total--;
                }
            }
            return resized(days, micros);
        }
        long[] micros = days.stream().mapToLong(Day::micros).toArray();
        long gap = week - total;
        for (int k = 0; k < micros.length; k++) {
            micros[k] += gap / micros.length + (k < gap % micros.length ? 1 : 0);
        }
        return resized(days, micros);
    }

    private static List<Day> resized(List<Day> days, long[] micros) {
        List<Day> resized = new ArrayList<>();
        for (int k = 0; k < micros.length; k++) {
            resized.add(new Day(micros[k], days.get(k).sourceOf(), days.get(k).dummy()));
        }
        return resized;
    }

    private static <T> void shuffle(List<T> list, SplittableRandom random) {
        for (int k = list.size() - 1; k > 0; k--) {
            int other = random.nextInt(k + 1);
            T held = list.get(k);
            list.set(k, list.get(other));
            list.set(other, held);
        }
    }
}
