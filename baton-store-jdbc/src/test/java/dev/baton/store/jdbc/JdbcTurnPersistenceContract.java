package dev.baton.store.jdbc;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.testkit.store.TurnPersistenceContract;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/** The turn persistence contract on {@link JdbcConversationStore}. Subclasses provide a database per class. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcTurnPersistenceContract extends TurnPersistenceContract {
    private String url;
    private Database db;
    private JdbcConversationStore store;

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
        db = Database.open(url);
        store = new JdbcConversationStore(db);
    }

    @AfterEach
    void close() {
        if (db != null) db.close();
    }

    @Override
    protected ConversationStore store() {
        return store;
    }

    @Override
    protected List<ToolCallRecord> toolCallRows(String sessionId) {
        return StoredRows.toolCalls(db, sessionId);
    }
}
