package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.StepRecord;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.conversation.TurnFencedException;
import dev.baton.core.id.Ids;
import dev.baton.runtime.durable.InstanceIdentity;
import dev.baton.runtime.durable.LeasedTurn;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A transactional tool's step ({@link JdbcConversationStore#recordStepWith}): what the tool writes through the same
 * {@link Database} commits with its {@code tool_calls} row and the turn's checkpoint, or none of them does.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcTransactionalStepContract {
    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    static final Duration LEASE = Duration.ofSeconds(15);
    static final String START = "{\"iteration\":1}";

    final InstanceIdentity first = new InstanceIdentity("api-1", "boot-a");
    final InstanceIdentity second = new InstanceIdentity("api-2", "boot-b");
    Database db;
    JdbcTurnLeaseStore leases;
    JdbcConversationStore conversations;

    protected abstract String createDatabase();

    protected abstract void dropDatabase();

    @BeforeAll
    void open() {
        db = Database.open(createDatabase());
        leases = new JdbcTurnLeaseStore(db);
        conversations = new JdbcConversationStore(db);
        // a domain's table, written the way a domain's repository writes: through the same Database
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "CREATE TABLE effects (id VARCHAR(64) PRIMARY KEY, session_id VARCHAR(64) NOT NULL)")) {
                ps.execute();
            }
            return null;
        });
    }

    @AfterAll
    void close() {
        if (db != null) db.close();
        dropDatabase();
    }

    @Test
    void the_tools_write_commits_with_its_call_and_the_checkpoint_and_no_one_sees_it_before() throws Exception {
        Session session = session();
        LeasedTurn turn = opened(session);
        ToolCallRecord call = toolCall(session);

        long[] seenByOthersMeanwhile = new long[1];
        conversations.recordStepWith(session.userId(), turn.fence(), () -> {
            effect(session);
            // another connection: the write is not there until its record is
            seenByOthersMeanwhile[0] =
                    CompletableFuture.supplyAsync(() -> effects(session)).join();
            return new StepRecord(List.of(call), "{\"iteration\":1,\"calls\":1}");
        });

        assertThat(seenByOthersMeanwhile[0]).isZero();
        assertThat(effects(session)).isEqualTo(1);
        assertThat(StoredRows.toolCalls(db, session.id()))
                .singleElement()
                .satisfies(t -> assertThat(t.id()).isEqualTo(call.id()));
        assertThat(state(session)).isEqualTo("{\"iteration\":1,\"calls\":1}");
    }

    @Test
    void a_failure_after_the_tools_write_rolls_back_the_write_and_records_nothing() {
        Session session = session();
        LeasedTurn turn = opened(session);

        assertThatThrownBy(() -> conversations.recordStepWith(session.userId(), turn.fence(), () -> {
                    effect(session);
                    throw new IllegalStateException("the tool failed after writing");
                }))
                .isInstanceOf(IllegalStateException.class);
        // a tool that failed (its outcome is kept out of the step): its write is rolled back too
        conversations.recordStepWith(session.userId(), turn.fence(), () -> {
            effect(session);
            return null;
        });

        assertThat(effects(session)).isZero();
        assertThat(StoredRows.toolCalls(db, session.id())).isEmpty();
        assertThat(state(session)).isEqualTo(START);
    }

    @Test
    void an_owner_fenced_out_by_a_takeover_keeps_neither_its_tools_write_nor_its_record() {
        Session session = session();
        LeasedTurn turn = opened(session);
        leases.takeOver(turn, second, T0.plus(LEASE), T0.plus(LEASE.multipliedBy(2)))
                .orElseThrow();

        assertThatThrownBy(() -> conversations.recordStepWith(session.userId(), turn.fence(), () -> {
                    effect(session);
                    return new StepRecord(List.of(toolCall(session)), "{\"stale\":true}");
                }))
                .isInstanceOf(TurnFencedException.class);

        assertThat(effects(session)).isZero();
        assertThat(StoredRows.toolCalls(db, session.id())).isEmpty();
        assertThat(state(session)).isEqualTo(START);
    }

    @Test
    void a_step_whose_call_names_another_users_session_keeps_neither_its_tools_write_nor_its_record() {
        Session session = session();
        LeasedTurn turn = opened(session);
        Session foreign = session();

        assertThatThrownBy(() -> conversations.recordStepWith(session.userId(), turn.fence(), () -> {
                    effect(session);
                    return new StepRecord(List.of(toolCall(foreign)), "{\"iteration\":2}");
                }))
                .isInstanceOf(SessionNotFoundException.class)
                .hasMessageContaining(foreign.id());

        assertThat(effects(session)).isZero();
        assertThat(StoredRows.toolCalls(db, foreign.id())).isEmpty();
        assertThat(state(session))
                .as("the fence holds: the checkpoint is not written")
                .isEqualTo(START);
    }

    @Test
    void without_a_lease_the_tools_write_commits_with_its_call_and_no_one_sees_it_before() {
        Session session = session();
        ToolCallRecord call = toolCall(session);

        long[] seenByOthersMeanwhile = new long[1];
        conversations.recordStepWith(session.userId(), null, () -> {
            effect(session);
            seenByOthersMeanwhile[0] =
                    CompletableFuture.supplyAsync(() -> effects(session)).join();
            return new StepRecord(List.of(call), null);
        });

        assertThat(seenByOthersMeanwhile[0]).isZero();
        assertThat(effects(session)).isEqualTo(1);
        assertThat(StoredRows.toolCalls(db, session.id()))
                .singleElement()
                .satisfies(t -> assertThat(t.id()).isEqualTo(call.id()));
        assertThat(leases.inSession(session.id())).isEmpty();
    }

    @Test
    void without_a_lease_a_call_that_cannot_be_recorded_takes_the_tools_write_with_it() {
        Session session = session();

        // the call's row is refused (the session is not this user's): the write it would have recorded goes too
        assertThatThrownBy(() -> conversations.recordStepWith("user-" + Ids.newId(), null, () -> {
                    effect(session);
                    return new StepRecord(List.of(toolCall(session)), null);
                }))
                .isInstanceOf(SessionNotFoundException.class);

        assertThat(effects(session)).isZero();
        assertThat(StoredRows.toolCalls(db, session.id())).isEmpty();
    }

    Session session() {
        Session session = Session.start(Ids.newId(), "tenant-1", "user-" + Ids.newId(), "tasks", null, T0);
        conversations.createSession(session);
        return session;
    }

    LeasedTurn opened(Session session) {
        LeasedTurn turn = new LeasedTurn(
                Ids.newId(),
                1,
                "tenant-1",
                session.userId(),
                session.id(),
                "req-" + Ids.newId(),
                "tasks",
                "{\"userId\":\"" + session.userId() + "\"}",
                first,
                T0.plus(LEASE),
                T0,
                START,
                null,
                null);
        leases.open(turn);
        return turn;
    }

    /** The domain's write, as a repository makes it: its own transaction, which joins the one running here. */
    void effect(Session session) {
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO effects (id, session_id) VALUES (?, ?)")) {
                ps.setString(1, Ids.newId());
                ps.setString(2, session.id());
                return ps.executeUpdate();
            }
        });
    }

    long effects(Session session) {
        return StoredRows.count(db, "SELECT count(*) FROM effects WHERE session_id = ?", session.id());
    }

    /** The turn's checkpoint, as a takeover would read it. */
    String state(Session session) {
        return leases.inSession(session.id()).orElseThrow().state();
    }

    static ToolCallRecord toolCall(Session session) {
        Instant at = T0.truncatedTo(ChronoUnit.MILLIS);
        return new ToolCallRecord(
                Ids.newId(),
                session.id(),
                null,
                "add_task",
                "{}",
                "{\"ok\":true}",
                ToolCallState.SUCCEEDED,
                null,
                at,
                at,
                3);
    }
}
