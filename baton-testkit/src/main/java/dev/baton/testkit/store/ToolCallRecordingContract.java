package dev.baton.testkit.store;

import static dev.baton.testkit.store.ConversationFixtures.T0;
import static dev.baton.testkit.store.ConversationFixtures.assistantMessage;
import static dev.baton.testkit.store.ConversationFixtures.newUser;
import static dev.baton.testkit.store.ConversationFixtures.session;
import static dev.baton.testkit.store.ConversationFixtures.toolCall;
import static dev.baton.testkit.store.ConversationFixtures.turn;
import static dev.baton.testkit.store.ConversationFixtures.unlinkedToolCall;
import static dev.baton.testkit.store.ConversationFixtures.userMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.id.Ids;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The part of the store contract about tool calls written while their turn runs (so a crash mid-turn leaves them
 * audited) and linked to the answer when it ends; {@link ConversationStoreContract} adds the rest.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ToolCallRecordingContract extends IdempotencyStoreContract {

    /** The conversation store under test. */
    protected abstract ConversationStore store();

    /** Every tool call row of the session, linked to a message or not, oldest first. */
    protected abstract List<ToolCallRecord> toolCallRows(String sessionId);

    @Test
    void a_tool_call_recorded_while_its_turn_runs_is_stored_unlinked_and_the_turn_links_it_without_a_second_row() {
        Session s = session(newUser(), "tutor", T0);
        store().createSession(s);
        store().appendUserMessage(userMessage(s, "list my tasks", T0.plusSeconds(1)));
        ToolCallRecord early = unlinkedToolCall(s, "tasks.list", T0.plusSeconds(2));

        store().recordToolCalls(s.userId(), List.of(early));

        assertThat(toolCallRows(s.id())).singleElement().satisfies(row -> {
            assertThat(row.id()).isEqualTo(early.id());
            assertThat(row.messageId()).isNull();
            assertThat(row.toolArgs()).isEqualTo(early.toolArgs());
            assertThat(row.toolResult()).isEqualTo("{\"ok\":true}");
            assertThat(row.startedAt()).isEqualTo(early.startedAt().truncatedTo(ChronoUnit.MICROS));
        });
        assertThat(store().findSession(s.userId(), s.id()).orElseThrow().toolCallCount())
                .as("counted when the turn ends")
                .isZero();

        Message answer = assistantMessage(s, "You have none.", T0.plusSeconds(3));
        ToolCallRecord late =
                toolCall(Ids.newId(), answer, "tasks.get", T0.plusSeconds(2).plusMillis(500));
        store().completeTurn(s.userId(), turn(answer, List.of(early, late), List.of()));

        assertThat(toolCallRows(s.id()))
                .extracting(ToolCallRecord::id, ToolCallRecord::messageId)
                .containsExactlyInAnyOrder(tuple(early.id(), answer.id()), tuple(late.id(), answer.id()));
        assertThat(store().toolCallsOf(s.userId(), s.id(), List.of(answer.id())))
                .extracting(ToolCallRecord::id)
                .containsExactly(early.id(), late.id());
        assertThat(store().findSession(s.userId(), s.id()).orElseThrow().toolCallCount())
                .isEqualTo(2);
    }

    @Test
    void another_user_cannot_record_tool_calls_in_a_session_and_a_refused_batch_writes_nothing() {
        Session s = session(newUser(), "tutor", T0);
        store().createSession(s);
        Session foreign = session(newUser(), "tutor", T0);
        store().createSession(foreign);
        ToolCallRecord mine = unlinkedToolCall(s, "tasks.list", T0.plusSeconds(1));

        assertThatThrownBy(() -> store().recordToolCalls(newUser(), List.of(mine)))
                .isInstanceOf(NoSuchElementException.class);
        assertThatThrownBy(() -> store().recordToolCalls(
                                s.userId(), List.of(mine, unlinkedToolCall(foreign, "tasks.list", T0.plusSeconds(1)))))
                .isInstanceOf(NoSuchElementException.class);

        assertThat(toolCallRows(s.id())).isEmpty();
        assertThat(toolCallRows(foreign.id())).isEmpty();
    }

    @Test
    void a_recorded_tool_call_must_not_name_a_message_yet() {
        Session s = session(newUser(), "tutor", T0);
        store().createSession(s);
        Message answer = assistantMessage(s, "later", T0.plusSeconds(2));

        assertThatThrownBy(() -> store().recordToolCalls(
                                s.userId(), List.of(toolCall(Ids.newId(), answer, "tasks.list", T0.plusSeconds(1)))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(toolCallRows(s.id())).isEmpty();
    }

    @Test
    void a_tool_call_already_linked_to_one_answer_cannot_be_claimed_by_another_turn() {
        Session s = session(newUser(), "tutor", T0);
        store().createSession(s);
        ToolCallRecord early = unlinkedToolCall(s, "tasks.list", T0.plusSeconds(1));
        store().recordToolCalls(s.userId(), List.of(early));
        Message first = assistantMessage(s, "first", T0.plusSeconds(2));
        store().completeTurn(s.userId(), turn(first, List.of(early), List.of()));
        Message second = assistantMessage(s, "second", T0.plusSeconds(3));

        assertThatThrownBy(() -> store().completeTurn(s.userId(), turn(second, List.of(early), List.of())))
                .isInstanceOf(RuntimeException.class);

        assertThat(toolCallRows(s.id()))
                .singleElement()
                .satisfies(row -> assertThat(row.messageId()).isEqualTo(first.id()));
        assertThat(store().recentMessages(s.userId(), s.id(), 10))
                .extracting(Message::content)
                .containsExactly("first");
        assertThat(store().findSession(s.userId(), s.id()).orElseThrow().toolCallCount())
                .isEqualTo(1);
    }
}
