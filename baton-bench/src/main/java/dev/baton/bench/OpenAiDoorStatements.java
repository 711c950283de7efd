package dev.baton.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Counts the SQL statements of one text turn through each door of {@link OpenAiDoorBench} (Baton's own
 * {@code POST /v1/sessions/{id}/messages}, {@code /v1/chat/completions} naming its session, and with the whole history
 * found by its digest) and prints what the OpenAI door adds: a deterministic measure beside the timings, which a
 * shared machine makes noisy.
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

    public static void main(String[] args) throws Exception {
        int turns = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        OpenAiDoorBench bench = new OpenAiDoorBench();
        bench.start();
        try {
            Map<String, Turn> doors = new LinkedHashMap<>();
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
        } finally {
            bench.stop();
        }
        System.exit(0);
    }
}
