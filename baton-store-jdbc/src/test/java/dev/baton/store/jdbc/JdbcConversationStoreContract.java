package dev.baton.store.jdbc;

import static dev.baton.testkit.store.ConversationFixtures.T0;
import static dev.baton.testkit.store.ConversationFixtures.newUser;
import static dev.baton.testkit.store.ConversationFixtures.session;
import static dev.baton.testkit.store.ConversationFixtures.userMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.IdempotencyStore;
import dev.baton.core.conversation.IdempotencyStore.StoredResponse;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.id.Ids;
import dev.baton.testkit.store.ConversationFixtures;
import dev.baton.testkit.store.ConversationStoreContract;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store contract on {@link JdbcConversationStore} and {@link JdbcIdempotencyStore}, plus what only a database
 * has: durability, transactions, migrations. Subclasses provide a database per class.
 */
abstract class JdbcConversationStoreContract extends ConversationStoreContract {
    static final List<String> EXTRA_MIGRATIONS = List.of("classpath:db/migration/testextra");

    private String url;
    Database db;
    JdbcConversationStore store;
    JdbcIdempotencyStore idempotency;

    /** Prepares an empty database for this class and returns its JDBC URL. */
    protected abstract String createDatabase();

    protected abstract void dropDatabase();

    @BeforeAll
    void prepareDatabase() {
        url = createDatabase();
    }

    @AfterAll
    void removeDatabase() {
        dropDatabase();
    }

    @BeforeEach
    void open() {
        reopen();
    }

    @AfterEach
    void close() {
        if (db != null) db.close();
    }

    void reopen() {
        if (db != null) db.close();
        db = Database.open(url, EXTRA_MIGRATIONS);
        store = new JdbcConversationStore(db);
        idempotency = new JdbcIdempotencyStore(db);
    }

    @Override
    protected ConversationStore store() {
        return store;
    }

    @Override
    protected IdempotencyStore idempotency() {
        return idempotency;
    }

    @Override
    protected List<ToolCallRecord> toolCallRows(String sessionId) {
        return StoredRows.toolCalls(db, sessionId);
    }

    @Override
    protected List<BigDecimal> usageCosts(String sessionId) {
        return StoredRows.usageCosts(db, sessionId);
    }

    @Test
    void data_survives_closing_and_reopening_the_database() {
        Session s = session(newUser(), "tutor", T0);
        store.createSession(s);
        Message m = store.appendUserMessage(userMessage(s, "remember me", T0.plusSeconds(1)));
        idempotency.save(s.userId(), "k", new StoredResponse("h", 201, "b", T0));

        reopen();

        assertThat(store.findSession(s.userId(), s.id()))
                .get()
                .extracting(Session::messageCount)
                .isEqualTo(1);
        assertThat(store.recentMessages(s.userId(), s.id(), 5)).containsExactly(m);
        assertThat(idempotency.find(s.userId(), "k")).isPresent();
    }

    @Test
    void nested_work_joins_the_outer_transaction_and_rolls_back_with_it() {
        Session s = session(newUser(), "tutor", T0);

        assertThatThrownBy(() -> db.inTransaction(c -> {
                    store.createSession(s);
                    assertThat(store.findSession(s.userId(), s.id()))
                            .as("visible inside the transaction")
                            .isPresent();
                    throw new IllegalStateException("abort");
                }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("abort");

        assertThat(store.findSession(s.userId(), s.id())).isEmpty();
    }

    @Test
    void a_message_appended_inside_a_transaction_joins_it_and_rolls_back_with_it() {
        Session s = session(newUser(), "tutor", T0);
        store.createSession(s);

        assertThatThrownBy(() -> db.inTransaction(c -> {
                    store.appendUserMessage(userMessage(s, "never kept", T0.plusSeconds(1)));
                    throw new IllegalStateException("abort");
                }))
                .hasMessage("abort");

        assertThat(store.findSession(s.userId(), s.id()).orElseThrow().messageCount())
                .isZero();
        assertThat(store.recentMessages(s.userId(), s.id(), 10)).isEmpty();
        Message next = store.appendUserMessage(userMessage(s, "kept", T0.plusSeconds(2)));
        assertThat(next.seq()).isEqualTo(1);
    }

    @Test
    void a_turn_completed_inside_a_transaction_joins_it_and_rolls_back_with_it() {
        Session s = sessionWith("hello");
        Message answer = ConversationFixtures.assistantMessage(s, "never kept", T0.plusSeconds(2));

        assertThatThrownBy(() -> db.inTransaction(c -> {
                    store.completeTurn(
                            s.userId(),
                            ConversationFixtures.turn(
                                    answer,
                                    List.of(),
                                    List.of(ConversationFixtures.usage(
                                            answer, new BigDecimal("0.25"), T0.plusSeconds(2)))));
                    throw new IllegalStateException("abort");
                }))
                .hasMessage("abort");

        assertThat(store.recentMessages(s.userId(), s.id(), 10))
                .extracting(Message::content)
                .containsExactly("hello");
        assertThat(usageCosts(s.id())).isEmpty();
    }

    @Test
    void a_turn_whose_usage_cannot_be_stored_leaves_nothing_behind() {
        Session s = sessionWith("first");
        Message first = ConversationFixtures.assistantMessage(s, "kept", T0.plusSeconds(2));
        var usage = ConversationFixtures.usage(first, new BigDecimal("0.25"), T0.plusSeconds(2));
        store.completeTurn(s.userId(), ConversationFixtures.turn(first, List.of(), List.of(usage)));
        store.appendUserMessage(userMessage(s, "second", T0.plusSeconds(3)));
        Message second = ConversationFixtures.assistantMessage(s, "never kept", T0.plusSeconds(4));
        ToolCallRecord call = ConversationFixtures.toolCall(Ids.newId(), second, "tasks.list", T0.plusSeconds(4));
        // the same usage row again: the turn's last statement fails, after the answer and the call were written
        var again = new dev.baton.core.conversation.UsageRecord(
                usage.id(),
                usage.tenantId(),
                usage.userId(),
                usage.sessionId(),
                second.id(),
                usage.provider(),
                usage.model(),
                usage.inputTokens(),
                usage.outputTokens(),
                usage.cachedInputTokens(),
                usage.costUsd(),
                usage.latencyMs(),
                usage.createdAt());

        assertThatThrownBy(() -> store.completeTurn(
                        s.userId(), ConversationFixtures.turn(second, List.of(call), List.of(again))))
                .isInstanceOf(StoreException.class);

        assertThat(store.recentMessages(s.userId(), s.id(), 10))
                .extracting(Message::content)
                .containsExactly("first", "kept", "second");
        assertThat(store.toolCallsOf(s.userId(), s.id(), List.of(second.id()))).isEmpty();
        assertThat(usageCosts(s.id())).containsExactly(new BigDecimal("0.25"));
        assertThat(store.findSession(s.userId(), s.id()).orElseThrow().messageCount())
                .isEqualTo(3);
    }

    /** A new user's new session, with one user message in it. */
    private Session sessionWith(String firstMessage) {
        Session s = session(newUser(), "tutor", T0);
        store.createSession(s);
        store.appendUserMessage(userMessage(s, firstMessage, T0.plusSeconds(1)));
        return s;
    }

    @Test
    void extra_migration_locations_are_applied_from_their_dialect_folder() {
        String id = Ids.newId();
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO extra_probe (id) VALUES (?)")) {
                ps.setString(1, id);
                return ps.executeUpdate();
            }
        });
        assertThat(StoredRows.count(db, "SELECT count(*) FROM extra_probe WHERE id = ?", id))
                .isEqualTo(1);
    }

    @Test
    void a_session_write_by_another_user_is_refused_as_not_found_and_a_clash_as_a_store_failure() {
        Session s = session(newUser(), "tutor", T0);
        store.createSession(s);

        assertThatThrownBy(() -> store.appendUserMessage(userMessage(session(newUser(), "tutor", T0), "hi", T0)))
                .isInstanceOf(SessionNotFoundException.class);
        assertThatThrownBy(() -> store.createSession(s)).isInstanceOf(StoreException.class);
    }
}
