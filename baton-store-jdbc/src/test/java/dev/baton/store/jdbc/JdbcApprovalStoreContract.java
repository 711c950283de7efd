package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.audit.AuditRecord;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.PausedTurnPendingException;
import dev.baton.core.id.Ids;
import dev.baton.runtime.approval.ApprovalStatus;
import dev.baton.runtime.approval.ApprovalStore;
import dev.baton.runtime.approval.PausedTurn;
import dev.baton.testkit.store.ApprovalStoreContract;
import java.time.Instant;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The approval store contract on {@link JdbcApprovalStore}, and what only a database store does: its paused turns are
 * seen by the user message's append of the conversation store on the same database. Subclasses provide a database
 * per class.
 */
abstract class JdbcApprovalStoreContract extends ApprovalStoreContract {
    private Database db;
    private JdbcConversationStore conversations;
    private JdbcApprovalStore approvals;

    protected abstract String createDatabase();

    protected abstract void dropDatabase();

    @BeforeAll
    void open() {
        db = Database.open(createDatabase());
        conversations = new JdbcConversationStore(db);
        approvals = new JdbcApprovalStore(db);
    }

    @AfterAll
    void close() {
        if (db != null) db.close();
        dropDatabase();
    }

    @Override
    protected ConversationStore conversations() {
        return conversations;
    }

    @Override
    protected ApprovalStore approvals() {
        return approvals;
    }

    @Test
    void only_the_conversation_store_on_the_same_database_sees_the_paused_turns() {
        assertThat(approvals.pausedTurnsSeenBy(conversations)).isTrue();
        assertThat(approvals.pausedTurnsSeenBy(new InMemoryConversationStore())).isFalse();
        assertThat(ApprovalStore.inMemory().pausedTurnsSeenBy(conversations)).isFalse();
    }

    @Test
    void a_user_message_is_refused_while_its_session_has_a_paused_turn_and_appended_once_it_ended() {
        Instant at = Instant.parse("2030-06-01T10:00:00Z");
        PausedTurn turn = pause("uma", at, 1);
        Message first = userMessage("uma", turn.sessionId(), "list my tasks", at.plusSeconds(1));
        Message withAudit = userMessage("uma", turn.sessionId(), "[redacted]", at.plusSeconds(2));
        AuditRecord audit = new AuditRecord(
                Ids.newId(),
                "tenant-1",
                turn.sessionId(),
                withAudit.id(),
                "my card is 4111",
                "redactor",
                "redacted",
                List.of("card"),
                at.plusSeconds(2));

        assertThatThrownBy(() -> conversations.appendUserMessageUnlessPaused(first, List.of(), List.of()))
                .isInstanceOf(PausedTurnPendingException.class);
        assertThatThrownBy(() -> conversations.appendUserMessageUnlessPaused(withAudit, List.of(audit), List.of()))
                .isInstanceOf(PausedTurnPendingException.class);
        assertThat(conversations
                        .findSession("uma", turn.sessionId())
                        .orElseThrow()
                        .messageCount())
                .isZero();
        assertThat(conversations.recentMessages("uma", turn.sessionId(), 10)).isEmpty();

        assertThat(approvals.close(turn.turnId(), ApprovalStatus.SUPERSEDED, "uma", "a new message", at.plusSeconds(3)))
                .isPresent();
        Message stored = conversations.appendUserMessageUnlessPaused(withAudit, List.of(audit), List.of());

        assertThat(stored.seq()).isEqualTo(1);
        assertThat(conversations.recentMessages("uma", turn.sessionId(), 10))
                .extracting(Message::id)
                .containsExactly(withAudit.id());
        assertThat(conversations
                        .findSession("uma", turn.sessionId())
                        .orElseThrow()
                        .messageCount())
                .isEqualTo(1);
    }

    @Test
    void another_users_session_with_a_paused_turn_is_not_found_rather_than_paused() {
        Instant at = Instant.parse("2030-06-02T10:00:00Z");
        PausedTurn turn = pause("vic", at, 1);
        Message intruder = userMessage("wes", turn.sessionId(), "hello", at.plusSeconds(1));

        assertThatThrownBy(() -> conversations.appendUserMessageUnlessPaused(intruder, List.of(), List.of()))
                .isInstanceOf(NoSuchElementException.class)
                .isNotInstanceOf(PausedTurnPendingException.class);
        assertThat(conversations
                        .findSession("vic", turn.sessionId())
                        .orElseThrow()
                        .messageCount())
                .isZero();
    }

    private static Message userMessage(String user, String sessionId, String content, Instant at) {
        return new Message(
                Ids.newId(), sessionId, user, 0, MessageRole.USER, content, MessageStatus.COMPLETE, null, at);
    }
}
