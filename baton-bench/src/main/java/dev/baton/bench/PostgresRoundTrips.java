package dev.baton.bench;

import dev.baton.testkit.db.PostgresTestDatabase;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Counts the round trips to PostgreSQL one turn makes (over HTTP, against a real server on a throwaway schema of the
 * PostgreSQL at 127.0.0.1:5432), from pgjdbc's protocol trace: every exchange with the server, whether a statement, a
 * batch or a COMMIT, ends with the one Sync message the driver sends, so Syncs are round trips. Each round trip costs
 * the server a wake-up and a reply however little the statement does, which is why PostgreSQL turns cost more than
 * SQLite ones; the count does not depend on the machine's load.
 *
 * <p>Usage: {@code java -cp ... dev.baton.bench.PostgresRoundTrips [--durable] [turns]} (default 20); {@code --durable}
 * runs the server with durable turns on (leased turns, checkpoints).
 */
public final class PostgresRoundTrips {
    /** pgjdbc's protocol logger; at FINEST it logs each message it sends. */
    private static final String PROTOCOL_LOGGER = "org.postgresql.core.v3.QueryExecutorImpl";

    private static final String SYNC = " FE=> Sync";
    private static final String EXECUTE = " FE=> Execute";
    /** HikariCP's upkeep and Baton's background jobs: work that happens whenever it happens, not a turn's. */
    private static final Pattern BACKGROUND = Pattern.compile(
            "connection[- ](adder|closer|assassinator)|housekeeper|session-sweep|approval-expiry|learning-content-worker",
            Pattern.CASE_INSENSITIVE);

    private PostgresRoundTrips() {}

    public static void main(String[] args) {
        List<String> numbers = new java.util.ArrayList<>(List.of(args));
        boolean durable = numbers.remove("--durable");
        int turns = CountArgs.first("roundtrips", "[--durable] [turns]", numbers, 20);
        var sections = StatementsPerTurn.priced();
        if (durable) {
            sections.putObject("durableTurns").put("enabled", true);
            System.out.println("durable turns ON");
        }
        PostgresTestDatabase postgres = PostgresTestDatabase.create();
        try (BenchServer server = BenchServer.start(BenchScripts.turns(), sections, Map.of(), postgres.url())) {
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
            }
        } finally {
            postgres.drop();
        }
    }

    private record Counts(long roundTrips, long executes, long background) {}

    /** Runs {@code work} with the protocol trace counted (and not printed). */
    private static Counts count(Runnable work) {
        Logger protocol = Logger.getLogger(PROTOCOL_LOGGER);
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
        Level previousLevel = protocol.getLevel();
        boolean previousParent = protocol.getUseParentHandlers();
        protocol.addHandler(counter);
        protocol.setUseParentHandlers(false);
        protocol.setLevel(Level.FINEST);
        try {
            work.run();
        } finally {
            protocol.setLevel(previousLevel);
            protocol.setUseParentHandlers(previousParent);
            protocol.removeHandler(counter);
        }
        return new Counts(syncs.sum(), executes.sum(), background.sum());
    }
}
