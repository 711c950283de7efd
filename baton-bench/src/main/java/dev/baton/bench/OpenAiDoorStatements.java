package dev.baton.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts the SQL statements of one text turn through each door of {@link OpenAiDoorBench} (Baton's own
 * {@code POST /v1/chat} — the baseline the others are compared with — and {@code POST /v1/sessions/{id}/messages}, {@code /v1/chat/completions} naming its session, and with the whole history
 * found by its digest) and prints what the OpenAI door adds: a deterministic measure beside the timings, which a
 * shared machine makes noisy; then times them turn by turn, interleaved, so that the machine's changing load weighs on
 * each door alike.
 *
 * <p>Usage: {@code java -cp ... dev.baton.bench.OpenAiDoorStatements [turns]} (default 20), or
 * {@code baton-bench/run.sh openai-statements [turns]}.
 */
public final class OpenAiDoorStatements {
    @FunctionalInterface
    private interface Turn {
        Object run() throws Exception;
    }

    private OpenAiDoorStatements() {}

    /**
     * Times the doors turn by turn in turns ({@code rounds} rounds of one turn each), so that a machine whose load
     * changes over the run weighs on every door alike; prints each door's median and mean against the first's.
     */
    private static void interleaved(OpenAiDoorBench bench, Map<String, Turn> doors, int rounds) throws Exception {
        List<Turn> list = List.copyOf(doors.values());
        long[][] nanos = new long[list.size()][rounds];
        for (int r = 0; r < rounds; r++) {
            if (r % 50 == 0) bench.cutBack(); // the conversations stay at the same length
            for (int d = 0; d < list.size(); d++) {
                // rotate who goes first, so no door always follows the same one
                int door = (d + r) % list.size();
                long start = System.nanoTime();
                list.get(door).run();
                nanos[door][r] = System.nanoTime() - start;
            }
        }
        System.out.printf("%ninterleaved, %d turns each:%n", rounds);
        double baseMedian = median(nanos[0]);
        double baseMean = Arrays.stream(nanos[0]).average().orElseThrow();
        int d = 0;
        for (String name : doors.keySet()) {
            double median = median(nanos[d]);
            double mean = Arrays.stream(nanos[d]).average().orElseThrow();
            System.out.printf(
                    "%-50s median %6.2f ms (%+5.1f %%)   mean %6.2f ms (%+5.1f %%)%n",
                    name, median / 1e6, (median / baseMedian - 1) * 100, mean / 1e6, (mean / baseMean - 1) * 100);
            d++;
        }
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    public static void main(String[] args) throws Exception {
        int turns = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        OpenAiDoorBench bench = new OpenAiDoorBench();
        bench.start();
        try {
            Map<String, Turn> doors = new LinkedHashMap<>();
            doors.put("POST /v1/chat", bench::v1Chat);
            doors.put("POST /v1/sessions/{id}/messages", bench::v1Message);
            doors.put("POST /v1/chat/completions, X-Conversation-ID", bench::chatCompletionNamed);
            doors.put("POST /v1/chat/completions, whole history", bench::chatCompletionHistory);
            for (Turn turn : doors.values()) {
                for (int i = 0; i < 5; i++) turn.run(); // load classes, open connections
            }
            bench.cutBack();
            for (var door : doors.entrySet()) {
                Map<String, Long> bySql;
                try (SqlStatementCounter counter = SqlStatementCounter.start()) {
                    for (int i = 0; i < turns; i++) door.getValue().run();
                    bySql = counter.bySql();
                }
                var r = new StatementsPerTurn.Result("text", 20, turns, bySql);
                System.out.printf(
                        "%-50s %5.1f SQL statements per turn (%.1f from Baton's code)%n",
                        door.getKey(), r.perTurn(), r.batonPerTurn());
                bySql.forEach((sql, n) -> {
                    if (System.getenv("ALL") != null || sql.contains("history_keys"))
                        System.out.printf(
                                "    %5.1f  %s%n",
                                n / (double) turns, sql.length() > 100 ? sql.substring(0, 100) + "…" : sql);
                });
            }
            interleaved(bench, doors, turns * 25);
        } finally {
            bench.stop();
        }
        System.exit(0);
    }
}
