package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.StepRecord;
import dev.baton.core.conversation.TurnFencedException;
import dev.baton.runtime.durable.LeasedTurn;
import dev.baton.testkit.db.PostgresTestDatabase;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Transactional tool steps on PostgreSQL, in a schema of their own. */
class PostgresTransactionalStepIT extends JdbcTransactionalStepContract {
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
     * Another instance takes the turn over while the tool runs (its lease ran out: the owner paused, say): the fence is
     * checked in the tool's own transaction, at its end, so the write the tool already made is rolled back. (On SQLite
     * the takeover waits for the tool's transaction, which then still holds the fence.)
     */
    @Test
    void a_takeover_committed_while_the_tool_runs_rolls_back_the_tools_write() {
        Session session = session();
        LeasedTurn turn = opened(session);

        assertThatThrownBy(() -> conversations.recordStepWith(session.userId(), turn.fence(), () -> {
                    effect(session);
                    CompletableFuture.supplyAsync(
                                    () -> leases.takeOver(turn, second, T0.plus(LEASE), T0.plus(LEASE.multipliedBy(2))))
                            .join()
                            .orElseThrow();
                    return new StepRecord(List.of(toolCall(session)), "{\"late\":true}");
                }))
                .isInstanceOf(TurnFencedException.class);

        assertThat(effects(session)).isZero();
        assertThat(StoredRows.toolCalls(db, session.id())).isEmpty();
        assertThat(state(session)).isEqualTo(START);
    }
}
