package dev.baton.testkit.store;

import static dev.baton.testkit.store.ConversationFixtures.T0;
import static dev.baton.testkit.store.ConversationFixtures.assistantMessage;
import static dev.baton.testkit.store.ConversationFixtures.newUser;
import static dev.baton.testkit.store.ConversationFixtures.session;
import static dev.baton.testkit.store.ConversationFixtures.toolCall;
import static dev.baton.testkit.store.ConversationFixtures.turn;
import static dev.baton.testkit.store.ConversationFixtures.usage;
import static dev.baton.testkit.store.ConversationFixtures.userMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.IdempotencyStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.SessionPage;
import dev.baton.core.conversation.SessionQuery;
import dev.baton.core.conversation.SessionState;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.id.Ids;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every {@link ConversationStore} (with its {@link IdempotencyStore}) must do, whatever keeps the data: run by
 * baton-store-jdbc against SQLite and PostgreSQL and by baton-testkit against {@code InMemoryConversationStore}.
 *
 * <p>Subclasses give the stores under test (they may be shared by all tests of the class: tests keep apart by using
 * fresh user ids) and two views behind the port's back, of rows the port has no read for. Instants come back
 * truncated to the microsecond; a write to another user's session throws {@link NoSuchElementException}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ConversationStoreContract extends ToolCallRecordingContract {

    /** The cost of every usage row of the session, in any order. */
    protected abstract List<BigDecimal> usageCosts(String sessionId);

    @Test
    void a_created_session_is_found_by_its_owner_with_instants_truncated_to_microseconds() {
        Session s = session(newUser(), "tutor", T0);
        store().createSession(s);

        Session found = store().findSession(s.userId(), s.id()).orElseThrow();

        assertThat(found.id()).isEqualTo(s.id());
        assertThat(found.agentId()).isEqualTo("tutor");
        assertThat(found.state()).isEqualTo(SessionState.ACTIVE);
        assertThat(found.startedAt()).isEqualTo(T0.truncatedTo(ChronoUnit.MICROS));
        assertThat(found.lastActivityAt()).isEqualTo(T0.truncatedTo(ChronoUnit.MICROS));
        assertThat(found.endedAt()).isNull();
        assertThat(found.messageCount()).isZero();
    }

    @Test
    void another_user_can_neither_see_nor_change_nor_delete_a_session() {
        Session s = session(newUser(), "tutor", T0);
        store().createSession(s);
        Message question = store().appendUserMessage(userMessage(s, "secret question", T0.plusSeconds(1)));
        String intruder = newUser();

        assertThat(store().findSession(intruder, s.id())).isEmpty();
        assertThat(store().recentMessages(intruder, s.id(), 10)).isEmpty();
        assertThat(store().listMessages(intruder, s.id(), null, 10)).isEmpty();
        assertThat(store().listSessions(intruder, new SessionQuery(null, null, 10, null))
                        .sessions())
                .isEmpty();
        assertThat(store().completeSession(intruder, s.id(), T0.plusSeconds(5))).isEmpty();
        assertThat(store().deleteSession(intruder, s.id())).isFalse();
        Message intruderAnswer = new Message(
                Ids.newId(),
                s.id(),
                intruder,
                0,
                MessageRole.ASSISTANT,
                "hijack",
                question.status(),
                "m",
                T0.plusSeconds(2));
        assertThatThrownBy(() -> store().completeTurn(intruder, turn(intruderAnswer, List.of(), List.of())))
                .isInstanceOf(NoSuchElementException.class);
        assertThatThrownBy(() -> store().appendUserMessage(new Message(
                        Ids.newId(),
                        s.id(),
                        intruder,
                        0,
                        question.role(),
                        "hi",
                        question.status(),
                        null,
                        T0.plusSeconds(3))))
                .isInstanceOf(NoSuchElementException.class);

        Session untouched = store().findSession(s.userId(), s.id()).orElseThrow();
        assertThat(untouched.state()).isEqualTo(SessionState.ACTIVE);
        assertThat(untouched.messageCount()).isEqualTo(1);
        assertThat(store().recentMessages(s.userId(), s.id(), 10))
                .extracting(Message::content)
                .containsExactly("secret question");
    }

    @Test
    void another_user_cannot_read_tool_calls_of_a_session() {
        Session s = session(newUser(), "tutor", T0);
        store().createSession(s);
        Message answer = assistantMessage(s, "done", T0.plusSeconds(2));
        store().completeTurn(
                        s.userId(),
                        turn(
                                answer,
                                List.of(toolCall(Ids.newId(), answer, "tasks.list", T0.plusSeconds(1))),
                                List.of()));

        assertThat(store().toolCallsOf(s.userId(), s.id(), List.of(answer.id())))
                .hasSize(1);
        assertThat(store().toolCallsOf(newUser(), s.id(), List.of(answer.id()))).isEmpty();
    }

    @Test
    void messages_get_consecutive_seqs_and_bump_the_session_counters() {
        Session s = session(newUser(), "tutor", T0);
        store().createSession(s);

        Message first = store().appendUserMessage(userMessage(s, "one", T0.plusSeconds(1)));
        Message answer = store().completeTurn(
                        s.userId(), turn(assistantMessage(s, "two", T0.plusSeconds(2)), List.of(), List.of()));
        Message third = store().appendUserMessage(userMessage(s, "three", T0.plusSeconds(3)));

        assertThat(List.of(first.seq(), answer.seq(), third.seq())).containsExactly(1L, 2L, 3L);
        assertThat(store().recentMessages(s.userId(), s.id(), 10))
                .extracting(Message::content)
                .containsExactly("one", "two", "three");
        Session after = store().findSession(s.userId(), s.id()).orElseThrow();
        assertThat(after.messageCount()).isEqualTo(3);
        assertThat(after.lastActivityAt()).isEqualTo(third.createdAt());
        assertThat(third)
                .isEqualTo(store().recentMessages(s.userId(), s.id(), 1).getFirst());
    }

    @Test
    void recent_messages_are_the_newest_n_in_chronological_order() {
        Session s = session(newUser(), "tutor", T0);
        store().createSession(s);
        for (int i = 1; i <= 10; i++) store().appendUserMessage(userMessage(s, "m" + i, T0.plusSeconds(i)));

        assertThat(store().recentMessages(s.userId(), s.id(), 3))
                .extracting(Message::seq)
                .containsExactly(8L, 9L, 10L);
        assertThat(store().listMessages(s.userId(), s.id(), 8L, 3))
                .extracting(Message::content)
                .containsExactly("m5", "m6", "m7");
        assertThat(store().listMessages(s.userId(), s.id(), 3L, 10))
                .extracting(Message::seq)
                .containsExactly(1L, 2L);
    }

    @Test
    void a_turn_writes_its_answer_tool_calls_and_usage_together() {
        Session s = session(newUser(), "tutor", T0);
        store().createSession(s);
        store().appendUserMessage(userMessage(s, "list my tasks", T0.plusSeconds(1)));
        Message answer = assistantMessage(s, "You have two tasks.", T0.plusSeconds(3));
        ToolCallRecord call1 = toolCall(Ids.newId(), answer, "tasks.list", T0.plusSeconds(2));
        ToolCallRecord call2 = new ToolCallRecord(
                Ids.newId(),
                s.id(),
                null,
                "tasks.get",
                "{}",
                null,
                dev.baton.core.conversation.ToolCallState.FAILED,
                "boom",
                T0.plusSeconds(2).plusMillis(5),
                null,
                0);
        BigDecimal cost = new BigDecimal("0.000123450");

        Message stored = store().completeTurn(
                        s.userId(),
                        turn(answer, List.of(call1, call2), List.of(usage(answer, cost, T0.plusSeconds(3)))));

        assertThat(stored.seq()).isEqualTo(2);
        List<ToolCallRecord> calls = store().toolCallsOf(s.userId(), s.id(), List.of(answer.id()));
        assertThat(calls).extracting(ToolCallRecord::toolName).containsExactly("tasks.list", "tasks.get");
        assertThat(calls.get(0).startedAt()).isEqualTo(call1.startedAt().truncatedTo(ChronoUnit.MICROS));
        assertThat(calls.get(0).toolResult()).isEqualTo("{\"ok\":true}");
        assertThat(calls.get(1).messageId())
                .as("a call without a message id is filed under the turn's answer")
                .isEqualTo(answer.id());
        assertThat(calls.get(1).errorMessage()).isEqualTo("boom");
        assertThat(calls.get(1).completedAt()).isNull();
        Session after = store().findSession(s.userId(), s.id()).orElseThrow();
        assertThat(after.messageCount()).isEqualTo(2);
        assertThat(after.toolCallCount()).isEqualTo(2);
        assertThat(usageCosts(s.id())).containsExactly(cost);
    }

    @Test
    void a_turn_that_fails_midway_leaves_nothing_behind() {
        Session s = session(newUser(), "tutor", T0);
        store().createSession(s);
        store().appendUserMessage(userMessage(s, "hello", T0.plusSeconds(1)));
        Message answer = assistantMessage(s, "partial", T0.plusSeconds(3));
        String duplicate = Ids.newId();
        var calls = List.of(
                toolCall(duplicate, answer, "a", T0.plusSeconds(2)),
                toolCall(duplicate, answer, "b", T0.plusSeconds(2)));

        assertThatThrownBy(() -> store().completeTurn(
                                s.userId(), turn(answer, calls, List.of(usage(answer, BigDecimal.ONE, T0)))))
                .as("two tool calls with one id")
                .isInstanceOf(RuntimeException.class);

        assertThat(store().recentMessages(s.userId(), s.id(), 10))
                .extracting(Message::content)
                .containsExactly("hello");
        assertThat(store().toolCallsOf(s.userId(), s.id(), List.of(answer.id())))
                .isEmpty();
        assertThat(usageCosts(s.id())).isEmpty();
        Session after = store().findSession(s.userId(), s.id()).orElseThrow();
        assertThat(after.messageCount()).isEqualTo(1);
        assertThat(after.toolCallCount()).isZero();
        // the seq the failed turn would have taken is free again
        assertThat(store().appendUserMessage(userMessage(s, "again", T0.plusSeconds(4)))
                        .seq())
                .isEqualTo(2);
    }

    @Test
    void sessions_list_newest_first_with_filters_and_cursor_paging() {
        String user = newUser();
        List<Session> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) created.add(session(user, i % 2 == 0 ? "tutor" : "coach", T0.plusSeconds(i)));
        // two sessions started in the same microsecond: the id breaks the tie
        created.add(session(user, "tutor", T0.plusSeconds(4)));
        created.forEach(store()::createSession);
        store().createSession(session(newUser(), "tutor", T0.plusSeconds(9))); // someone else's
        store().completeSession(user, created.get(0).id(), T0.plusSeconds(10));

        List<String> expectedOrder = created.stream()
                .sorted(java.util.Comparator.comparing(Session::startedAt)
                        .thenComparing(Session::id)
                        .reversed())
                .map(Session::id)
                .toList();
        List<String> paged = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            SessionPage page = store().listSessions(user, new SessionQuery(null, null, 2, cursor));
            assertThat(page.sessions()).hasSizeLessThanOrEqualTo(2);
            page.sessions().forEach(x -> paged.add(x.id()));
            cursor = page.nextCursor();
            pages++;
        } while (cursor != null && pages < 10);
        assertThat(paged).containsExactlyElementsOf(expectedOrder);
        assertThat(pages).isEqualTo(3);

        assertThat(store().listSessions(user, new SessionQuery("coach", null, 10, null))
                        .sessions())
                .extracting(Session::id)
                .containsExactly(created.get(3).id(), created.get(1).id());
        assertThat(store().listSessions(user, new SessionQuery("tutor", SessionState.ACTIVE, 10, null))
                        .sessions())
                .extracting(Session::id)
                .hasSize(3)
                .doesNotContain(created.get(0).id());
        assertThat(store().listSessions(user, new SessionQuery(null, SessionState.COMPLETED, 10, null))
                        .sessions())
                .extracting(Session::id)
                .containsExactly(created.get(0).id());
        assertThatThrownBy(() -> store().listSessions(user, new SessionQuery(null, null, 10, "not-a-cursor")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void completing_a_session_records_the_end_once() {
        Session s = session(newUser(), "tutor", T0);
        store().createSession(s);

        Session done =
                store().completeSession(s.userId(), s.id(), T0.plusSeconds(60)).orElseThrow();
        Session again =
                store().completeSession(s.userId(), s.id(), T0.plusSeconds(120)).orElseThrow();

        assertThat(done.state()).isEqualTo(SessionState.COMPLETED);
        assertThat(done.endedAt()).isEqualTo(T0.plusSeconds(60).truncatedTo(ChronoUnit.MICROS));
        assertThat(again.endedAt()).isEqualTo(done.endedAt());
        assertThat(store().completeSession(s.userId(), Ids.newId(), T0)).isEmpty();
    }

    @Test
    void deleting_a_session_removes_its_messages_but_keeps_usage_for_billing() {
        Session s = session(newUser(), "tutor", T0);
        store().createSession(s);
        store().appendUserMessage(userMessage(s, "hello", T0.plusSeconds(1)));
        Message answer = assistantMessage(s, "hi", T0.plusSeconds(2));
        store().completeTurn(
                        s.userId(),
                        turn(
                                answer,
                                List.of(toolCall(Ids.newId(), answer, "t", T0.plusSeconds(1))),
                                List.of(usage(answer, new BigDecimal("0.5"), T0.plusSeconds(2)))));

        assertThat(store().deleteSession(s.userId(), s.id())).isTrue();

        assertThat(store().findSession(s.userId(), s.id())).isEmpty();
        assertThat(store().listMessages(s.userId(), s.id(), null, 10)).isEmpty();
        assertThat(toolCallRows(s.id())).isEmpty();
        assertThat(usageCosts(s.id())).containsExactly(new BigDecimal("0.5"));
        assertThat(store().deleteSession(s.userId(), s.id())).isFalse();
    }

    @Test
    void concurrent_appends_get_unique_consecutive_seqs() throws Exception {
        Session s = session(newUser(), "tutor", T0);
        store().createSession(s);
        int threads = 8;
        int perThread = 25;
        var start = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<List<Long>>> futures = new ArrayList<>();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    List<Long> seqs = new ArrayList<>();
                    for (int i = 0; i < perThread; i++)
                        seqs.add(store().appendUserMessage(userMessage(s, "x", Instant.now()))
                                .seq());
                    return seqs;
                }));
            }
            start.countDown();
            List<Long> all = new ArrayList<>();
            for (var f : futures) all.addAll(f.get(60, java.util.concurrent.TimeUnit.SECONDS));
            assertThat(all)
                    .containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, threads * perThread)
                            .boxed()
                            .toList());
        }
        assertThat(store().findSession(s.userId(), s.id()).orElseThrow().messageCount())
                .isEqualTo(threads * perThread);
    }
}
