package dev.baton.store.jdbc;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.runtime.approval.ApprovalStore;
import dev.baton.testkit.store.ApprovalStoreContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The approval store contract on {@link JdbcApprovalStore}; subclasses provide a database per class. */
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
}
