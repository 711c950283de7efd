package dev.baton.bench;

import dev.baton.testkit.db.PostgresProtocolTrace;
import dev.baton.testkit.db.PostgresTestDatabase;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.regex.Pattern;

/**
 * Counts the round trips to PostgreSQL one turn makes (over HTTP, against a real server on a throwaway schema of the
 * PostgreSQL at 127.0.0.1:5432), from pgjdbc's protocol trace: every exchange with the server, whether a statement, a
 * batch or a COMMIT, ends with the one Sync message the driver sends, so Syncs are round trips. Each round trip costs
 * the server a wake-up and a reply however little the statement does, which is why PostgreSQL turns cost more than
 * SQLite ones; the count does not depend on the machine's load.
 *
 * <p>Usage: {@code java -cp ... dev.baton.bench.PostgresRoundTrips [--durable] [--list] [turns]} (default 20); {@code
 * --durable} runs the server with durable turns on (leased turns, checkpoints); {@code --list} then prints one more turn
 * of each kind round trip by round trip, with the statements each carried (the driver then sends every statement's
 * text, which changes no round trip).
 */
public final class PostgresRoundTrips {
    private static final String PROTOCOL_LOGGER = PostgresProtocolTrace.LOGGER;
    private static final String SYNC = PostgresProtocolTrace.SYNC;
    private static final String EXECUTE = " FE=> Execute";
    /** HikariCP's upkeep and Baton's background jobs: work that happens whenever it happens, not a turn's. */
    private static final Pattern BACKGROUND = Pattern.compile(
            "connection[- ](adder|closer|assassinator)|housekeeper|session-sweep|approval-expiry|learning-content-worker",
            Pattern.CASE_INSENSITIVE);

    private PostgresRoundTrips() {}

    public static void main(String[] args) {
        List<String> numbers = new java.util.ArrayList<>(List.of(args));
        boolean durable = numbers.remove("--durable");
        boolean list = numbers.remove("--list");
        int turns = CountArgs.first("roundtrips", "[--durable] [--list] [turns]", numbers, 20);
        var sections = StatementsPerTurn.priced();
        if (durable) {
            sections.putObject("durableTurns").put("enabled", true);
            System.out.println("durable turns ON");
        }
        PostgresTestDatabase postgres = PostgresTestDatabase.create();
        // prepareThreshold=0: no statement is prepared on the server, so every Parse names its statement's text
        String url = list
                ? postgres.url() + (postgres.url().contains("?") ? "&" : "?") + "prepareThreshold=0"
                : postgres.url();
        try (BenchServer server = BenchServer.start(BenchScripts.turns(), sections, Map.of(), url)) {
            for (String kind : List.of("text", "tool")) {
                String prompt = kind.equals("text") ? BenchScripts.TEXT_PROMPT : BenchScripts.TOOL_PROMPT;
                String session = server.startSession();
                for (int i = 0; i < 5; i++) server.send(session, prompt); // prepare statements, open connections
                Counts counts = count(() -> {
                    for (int i = 0; i < turns; i++) {
                        BenchServer.TurnReply reply = server.send(session, prompt);
                        if (kind.equals("text")) TurnLatencyBench.check(reply, BenchScripts.TEXT_ANSWER, List.of());
                        else TurnLatencyBench.check(reply, BenchScripts.TOOL_ANSWER, List.of("succeeded"));
                    }
                });
                if (counts.roundTrips() == 0) {
                    throw new IllegalStateException("pgjdbc logged no Sync at FINEST on " + PROTOCOL_LOGGER
                            + ": its protocol trace changed, and this count cannot be trusted");
                }
                System.out.printf(
                        "%s turn, %d turns: %.1f round trips to PostgreSQL per turn, %.1f statements executed"
                                + " (%.1f more round trips by background work, not counted)%n",
                        kind,
                        turns,
                        counts.roundTrips() / (double) turns,
                        counts.executes() / (double) turns,
                        counts.background() / (double) turns);
                if (list) list(kind, () -> server.send(session, prompt));
            }
        } finally {
            postgres.drop();
        }
    }

    private record Counts(long roundTrips, long executes, long background) {}

    /** Runs one turn and prints its round trips in order, each with its thread and the statements it carried. */
    private static void list(String kind, Runnable turn) {
        List<String> lines = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        Map<String, StringBuilder> pending = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.logging.Formatter text = new java.util.logging.SimpleFormatter();
        Handler tracer = new Handler() {
            @Override
            public void publish(LogRecord log) {
                String thread = Thread.currentThread().getName();
                if (log.getMessage() == null || BACKGROUND.matcher(thread).find()) return;
                String message = text.formatMessage(log);
                StringBuilder statements = pending.computeIfAbsent(thread, t -> new StringBuilder());
                java.util.regex.Matcher query = PARSED_QUERY.matcher(message);
                if (query.find()) {
                    String sql = query.group(1).strip();
                    if (!statements.isEmpty()) statements.append("\n      ");
                    statements.append(sql.length() > 110 ? sql.substring(0, 110) + "…" : sql);
                } else if (message.equals(SYNC)) {
                    lines.add(String.format("  %2d  %-26s %s", lines.size() + 1, thread, statements));
                    statements.setLength(0);
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        PostgresProtocolTrace.during(tracer, turn);
        System.out.println("one " + kind + " turn, round trip by round trip:");
        lines.forEach(System.out::println);
    }

    /** A Parse message's statement text (pgjdbc quotes it). */
    private static final Pattern PARSED_QUERY =
            Pattern.compile("^ FE=> Parse\\(stmt=[^,]*,query=\"(.*)\",oids=", Pattern.DOTALL);

    /** Runs {@code work} with the protocol trace counted (and not printed). */
    private static Counts count(Runnable work) {
        LongAdder syncs = new LongAdder();
        LongAdder executes = new LongAdder();
        LongAdder background = new LongAdder();
        Handler counter = new Handler() {
            @Override
            public void publish(LogRecord log) {
                String message = log.getMessage();
                if (message == null) return;
                // the handler runs on the thread that sends the message
                boolean ours =
                        !BACKGROUND.matcher(Thread.currentThread().getName()).find();
                if (message.equals(SYNC)) (ours ? syncs : background).increment();
                else if (ours && message.startsWith(EXECUTE)) executes.increment();
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        PostgresProtocolTrace.during(counter, work);
        return new Counts(syncs.sum(), executes.sum(), background.sum());
    }
}
