package dev.baton.store.jdbc;

import static dev.baton.testkit.store.ConversationFixtures.T0;
import static dev.baton.testkit.store.ConversationFixtures.assistantMessage;
import static dev.baton.testkit.store.ConversationFixtures.newUser;
import static dev.baton.testkit.store.ConversationFixtures.session;
import static dev.baton.testkit.store.ConversationFixtures.toolCall;
import static dev.baton.testkit.store.ConversationFixtures.unlinkedToolCall;
import static dev.baton.testkit.store.ConversationFixtures.usage;
import static dev.baton.testkit.store.ConversationFixtures.userMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.ExtractionRecord;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.TurnRecord;
import dev.baton.core.id.Ids;
import dev.baton.testkit.db.PostgresProtocolTrace;
import dev.baton.testkit.db.PostgresTestDatabase;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The store contract on PostgreSQL, in a schema of its own that is dropped afterwards. */
class PostgresConversationStoreIT extends JdbcConversationStoreContract {
    private PostgresTestDatabase postgres;

    @Override
    protected String createDatabase() {
        postgres = PostgresTestDatabase.create();
        return postgres.url();
    }

    @Override
    protected void dropDatabase() {
        if (postgres != null) postgres.drop();
    }

    /**
     * pgjdbc prepares a statement on the server at its fifth use, and PostgreSQL then plans it once for any parameters
     * (a generic plan). On tables not analysed yet (a new deployment, before autovacuum's first pass) that plan read
     * all of a long session's messages and sorted them, for every turn's history. In a schema of its own, so the
     * statistics are this test's.
     */
    @Test
    void the_history_query_reads_no_more_rows_than_it_returns_whatever_the_statistics_say() {
        PostgresTestDatabase own = PostgresTestDatabase.create();
        try (Database ownDb = Database.open(own.url())) {
            JdbcConversationStore ownStore = new JdbcConversationStore(ownDb);
            // the tables as a new deployment has them: never analysed (and autovacuum kept from doing it mid-test)
            ownDb.withConnection(c -> c.prepareStatement("ALTER TABLE messages SET (autovacuum_enabled = false);"
                            + " ALTER TABLE sessions SET (autovacuum_enabled = false)")
                    .execute());
            Session longOne = session(newUser(), "tutor", T0);
            ownStore.createSession(longOne);
            for (int i = 0; i < 2400; i++) ownStore.appendUserMessage(userMessage(longOne, "m" + i, T0.plusSeconds(i)));
            String id = longOne.id();
            String user = longOne.userId();

            assertThat(ownStore.recentMessages(user, id, 21))
                    .extracting(Message::content)
                    .first()
                    .isEqualTo("m2379");
            assertThat(rowsScanned(ownDb, UNBOUNDED_HISTORY, id, user, 21))
                    .as("the statistics mislead a history query without the seq bound")
                    .isGreaterThan(21);
            assertThat(rowsScanned(ownDb, MessageRows.newestSql(false), id, user, id, 21, 21))
                    .isLessThanOrEqualTo(21);
            assertThat(rowsScanned(ownDb, MessageRows.newestSql(true), id, user, 200L, 179L, 21))
                    .isLessThanOrEqualTo(21);
        } finally {
            own.drop();
        }
    }

    /** The history query as it was, bounded by LIMIT alone. */
    private static final String UNBOUNDED_HISTORY = "SELECT id, session_id, user_id, seq, role, content, status, model,"
            + " created_at FROM messages WHERE session_id = ? AND user_id = ? ORDER BY seq DESC LIMIT ?";

    /**
     * The most rows any node of the query's executed generic plan (the one a server-prepared statement runs) read. The
     * parameters are this test's own ids and numbers, written into the EXECUTE as literals.
     */
    private static long rowsScanned(Database db, String sql, Object... params) {
        int[] n = {0};
        String numbered = java.util.regex.Pattern.compile("\\?").matcher(sql).replaceAll(m -> "\\$" + ++n[0]);
        String args = java.util.Arrays.stream(params)
                .map(p -> p instanceof String text ? "'" + text + "'" : p.toString())
                .collect(java.util.stream.Collectors.joining(", "));
        String plan = db.withConnection(c -> {
            try (var st = c.createStatement()) {
                st.execute("SET plan_cache_mode = force_generic_plan");
                st.execute("PREPARE history_probe AS " + numbered);
                try (var rs = st.executeQuery("EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE history_probe(" + args + ")")) {
                    rs.next();
                    return rs.getString(1);
                } finally {
                    st.execute("DEALLOCATE history_probe");
                    st.execute("RESET plan_cache_mode");
                }
            }
        });
        long most = 0;
        var rows = java.util.regex.Pattern.compile("\"Actual Rows\": (\\d+)").matcher(plan);
        while (rows.find()) most = Math.max(most, Long.parseLong(rows.group(1)));
        assertThat(plan).as("the plan was read").contains("Actual Rows");
        return most;
    }

    @Test
    void a_one_statement_write_runs_in_autocommit_and_a_transaction_does_not() {
        boolean oneStatement = db.inOneStatement(c -> c.getAutoCommit());
        boolean transaction = db.inTransaction(c -> c.getAutoCommit());
        boolean joined = db.inTransaction(outer -> db.inOneStatement(c -> c == outer));

        assertThat(oneStatement).as("one statement").isTrue();
        assertThat(transaction).as("a transaction").isFalse();
        assertThat(joined).as("one statement inside a transaction joins it").isTrue();
    }

    @Test
    void only_a_transaction_s_own_work_commits_with_its_last_statement() {
        String own = db.inTransaction(c -> db.commitWithLastStatement());
        String joined = db.inTransaction(outer -> db.inTransaction(inner -> db.commitWithLastStatement()));
        String afterJoining = db.inTransaction(outer -> {
            db.inTransaction(inner -> null);
            return db.commitWithLastStatement();
        });
        String read = db.withConnection(c -> db.commitWithLastStatement());

        assertThat(own).isEqualTo("; COMMIT");
        assertThat(joined).as("work that joined a transaction").isEmpty();
        assertThat(afterJoining).as("the outer work after nested work returned").isEqualTo("; COMMIT");
        assertThat(read).as("outside a transaction").isEmpty();
    }

    @Test
    void a_turns_answer_calls_audit_extractions_and_usage_are_stored_in_one_round_trip() {
        Session s = session(newUser(), "tutor", T0);
        store.createSession(s);
        store.appendUserMessage(userMessage(s, "list my tasks", T0.plusSeconds(1)));
        ToolCallRecord early = unlinkedToolCall(s, "tasks.list", T0.plusSeconds(2));
        store.recordToolCalls(s.userId(), List.of(early));
        Message answer = assistantMessage(s, "You have [redacted] tasks.", T0.plusSeconds(3));
        ToolCallRecord late =
                toolCall(Ids.newId(), answer, "tasks.get", T0.plusSeconds(2).plusMillis(500));
        AuditRecord audit = new AuditRecord(
                Ids.newId(),
                "tenant-1",
                s.id(),
                answer.id(),
                "You have 2 tasks.",
                "pii",
                "a number",
                List.of("\\d"),
                T0.plusSeconds(3));
        ExtractionRecord extraction = new ExtractionRecord(
                Ids.newId(),
                s.id(),
                answer.id(),
                "tasks",
                "count",
                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                        .objectNode()
                        .put("n", 2),
                T0.plusSeconds(3));
        TurnRecord turn = new TurnRecord(
                answer,
                List.of(early, late),
                List.of(usage(answer, new BigDecimal("0.0042"), T0.plusSeconds(3))),
                List.of(audit),
                List.of(extraction));
        Message[] stored = new Message[1];

        int roundTrips = PostgresProtocolTrace.roundTripsOf(() -> stored[0] = store.completeTurn(s.userId(), turn));

        assertThat(roundTrips)
                .as("the answer, its calls, audit, extraction, usage and COMMIT")
                .isEqualTo(1);
        assertThat(stored[0].seq()).isEqualTo(2);
        assertThat(toolCallRows(s.id()))
                .extracting(ToolCallRecord::id, ToolCallRecord::messageId)
                .containsExactlyInAnyOrder(tuple(early.id(), answer.id()), tuple(late.id(), answer.id()));
        Session after = store.findSession(s.userId(), s.id()).orElseThrow();
        assertThat(after.messageCount()).isEqualTo(2);
        assertThat(after.toolCallCount()).isEqualTo(2);
        assertThat(usageCosts(s.id()))
                .usingElementComparator(BigDecimal::compareTo)
                .containsExactly(new BigDecimal("0.0042"));
        JdbcAuditStore audits = new JdbcAuditStore(db);
        assertThat(audits.sessionAudit("tenant-1", s.id()).orElseThrow())
                .singleElement()
                .satisfies(a -> assertThat(a.originalContent()).isEqualTo("You have 2 tasks."));
        assertThat(audits.sessionExtractions("tenant-1", s.id()))
                .singleElement()
                .satisfies(x -> assertThat(x.data().get("n").asInt()).isEqualTo(2));
    }

    @Test
    void a_turn_whose_check_fails_in_its_round_trip_leaves_nothing_and_is_refused_as_before() {
        Session s = session(newUser(), "tutor", T0);
        store.createSession(s);
        String intruder = newUser();
        Message answer = new Message(
                Ids.newId(),
                s.id(),
                intruder,
                0,
                MessageRole.ASSISTANT,
                "not mine to write",
                MessageStatus.COMPLETE,
                "simulator:default",
                T0.plusSeconds(3));
        ToolCallRecord call = toolCall(Ids.newId(), answer, "tasks.get", T0.plusSeconds(2));
        TurnRecord turn =
                new TurnRecord(answer, List.of(call), List.of(usage(answer, new BigDecimal("0.5"), T0.plusSeconds(3))));

        assertThatThrownBy(() -> store.completeTurn(intruder, turn)).isInstanceOf(SessionNotFoundException.class);

        assertThat(toolCallRows(s.id())).isEmpty();
        assertThat(usageCosts(s.id())).isEmpty();
        assertThat(store.findSession(s.userId(), s.id()).orElseThrow().messageCount())
                .isZero();
    }
}
