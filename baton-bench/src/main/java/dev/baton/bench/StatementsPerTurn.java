package dev.baton.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts the SQL statements one turn executes (over HTTP, against a real server on SQLite) with a short and a long
 * conversation, and says whether the count depends on the length. Exits with status 1 when it does.
 *
 * <p>Usage: {@code java -cp ... dev.baton.bench.StatementsPerTurn [--durable] [--trace] [turns] [history...]}
 * (default 20 turns, histories 10 and 10000). {@code --durable} runs the server with durable turns on (leased turns,
 * checkpoints); {@code --trace} also prints the statements of the last turn of each kind in the order they ran, with
 * their threads, so a turn's transactions (BEGIN IMMEDIATE … COMMIT) can be read off.
 */
public final class StatementsPerTurn {
    /** Hikari's liveness probe on a connection idle for over 500 ms: the pool's work, not the turn's. */
    static final String POOL_PROBE = "select 1";
    /** sqlite-jdbc reads the generated key after every single-row INSERT (its getGeneratedKeys option, on by default). */
    static final String GENERATED_KEY_LOOKUP = "SELECT last_insert_rowid();";

    /** Statements per turn for one kind of turn at one conversation length. */
    public record Result(String kind, int history, int turns, Map<String, Long> bySql) {
        public Result {
            bySql = Collections.unmodifiableMap(new LinkedHashMap<>(bySql));
        }

        /** Statements per turn, the pool's own work (liveness probes, opening connections) left out. */
        public double perTurn() {
            return withoutPoolWork(bySql).values().stream()
                            .mapToLong(Long::longValue)
                            .sum()
                    / (double) turns;
        }

        /** Statements per turn that Baton's own code issues (no probe, no driver-internal lookups). */
        public double batonPerTurn() {
            return perTurn() - bySql.getOrDefault(GENERATED_KEY_LOOKUP, 0L) / (double) turns;
        }
    }

    private StatementsPerTurn() {}

    /** What to run against and what to print besides the counts. */
    record Options(boolean durable, boolean trace) {}

    public static void main(String[] args) {
        List<String> numbers = new ArrayList<>(List.of(args));
        Options options = new Options(numbers.remove("--durable"), numbers.remove("--trace"));
        String usage = "[--durable] [--trace] [turns] [history...]";
        int turns = CountArgs.first("statements", usage, numbers, 20);
        List<Integer> histories = new ArrayList<>();
        for (int i = 1; i < numbers.size(); i++) histories.add(CountArgs.parse("statements", usage, numbers.get(i)));
        if (histories.isEmpty()) histories = List.of(10, 10_000);
        if (options.durable()) System.out.println("durable turns ON");

        boolean flat = true;
        for (String kind : List.of("text", "tool")) {
            Map<Integer, Result> results = new LinkedHashMap<>();
            for (int history : histories) {
                Result r = measure(kind, history, turns, options);
                results.put(history, r);
                print(r);
            }
            var distinct = results.values().stream()
                    .map(r -> withoutPoolWork(r.bySql()))
                    .distinct()
                    .count();
            if (distinct > 1) {
                flat = false;
                System.out.printf("%s turn: statements per turn DEPEND on conversation length%n%n", kind);
            } else {
                System.out.printf("%s turn: the same statements, the same number of times, at every length%n%n", kind);
            }
        }
        System.exit(flat ? 0 : 1);
    }

    /** Runs a few unmeasured turns, cuts the conversation back to {@code history}, then counts {@code turns} turns. */
    public static Result measure(String kind, int history, int turns) {
        return measure(kind, history, turns, new Options(false, false));
    }

    /** As {@link #measure(String, int, int)}, with durable turns on or off, printing the last turn's trace if asked. */
    static Result measure(String kind, int history, int turns, Options options) {
        String prompt = switch (kind) {
            case "text" -> BenchScripts.TEXT_PROMPT;
            case "tool" -> BenchScripts.TOOL_PROMPT;
            default -> throw new IllegalArgumentException("kind is text or tool: " + kind);
        };
        ObjectNode sections = priced();
        if (options.durable()) sections.putObject("durableTurns").put("enabled", true);
        try (BenchServer server = BenchServer.start(BenchScripts.turns(), sections, Map.of())) {
            String session = server.startSession();
            server.seedHistory(session, history);
            for (int i = 0; i < 5; i++) server.send(session, prompt); // load classes, open connections
            server.resetHistory(session, history);
            try (SqlStatementCounter counter = SqlStatementCounter.start()) {
                for (int i = 0; i < turns; i++) {
                    if (i == turns - 1) counter.restartSequence();
                    BenchServer.TurnReply reply = server.send(session, prompt);
                    if (kind.equals("text")) TurnLatencyBench.check(reply, BenchScripts.TEXT_ANSWER, List.of());
                    else TurnLatencyBench.check(reply, BenchScripts.TOOL_ANSWER, List.of("succeeded"));
                }
                if (options.trace()) {
                    System.out.printf(
                            "%s turn, %d prior messages: the last turn's statements in order%n", kind, history);
                    counter.sequence().forEach(line -> System.out.println("    " + shorten(line, 160)));
                }
                return new Result(kind, history, turns, counter.bySql());
            }
        }
    }

    /**
     * The simulator's model priced like a real one: a turn that costs something also adds to the budgets' spending
     * totals, as every turn in production does, and that statement belongs in the count.
     */
    static ObjectNode priced() {
        ObjectNode sections = JsonNodeFactory.instance.objectNode();
        sections.putObject("prices")
                .putObject("models")
                .putObject("simulator:*")
                .put("input", 0.15)
                .put("output", 0.60);
        return sections;
    }

    private static Map<String, Long> withoutPoolWork(Map<String, Long> bySql) {
        Map<String, Long> out = new LinkedHashMap<>(bySql);
        out.keySet()
                .removeIf(sql -> sql.equalsIgnoreCase(POOL_PROBE) || sql.startsWith(SqlStatementCounter.POOL_PREFIX));
        return out;
    }

    private static void print(Result r) {
        System.out.printf(
                "%s turn, %d prior messages, %d turns: %.1f SQL statements per turn (%.1f from Baton's code,"
                        + " the rest sqlite-jdbc's own generated-key lookups)%n",
                r.kind(), r.history(), r.turns(), r.perTurn(), r.batonPerTurn());
        r.bySql()
                .forEach((sql, n) -> System.out.printf(
                        "  %5.1f  %s%s%n",
                        n / (double) r.turns(), sql.length() > 120 ? sql.substring(0, 120) + "…" : sql, note(sql)));
    }

    private static String shorten(String line, int max) {
        return line.length() > max ? line.substring(0, max) + "…" : line;
    }

    private static String note(String sql) {
        if (sql.equalsIgnoreCase(POOL_PROBE)) return "   (HikariCP liveness probe, not counted)";
        if (sql.startsWith(SqlStatementCounter.POOL_PREFIX)) return "   (HikariCP's own thread, not counted)";
        if (sql.equals(GENERATED_KEY_LOOKUP)) return "   (sqlite-jdbc, after each single-row INSERT)";
        return "";
    }
}
