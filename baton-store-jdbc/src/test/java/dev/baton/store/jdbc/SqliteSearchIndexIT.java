package dev.baton.store.jdbc;

import static dev.baton.testkit.store.ConversationFixtures.T0;
import static dev.baton.testkit.store.ConversationFixtures.newUser;
import static dev.baton.testkit.store.ConversationFixtures.session;
import static dev.baton.testkit.store.ConversationFixtures.userMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.Session;
import dev.baton.runtime.session.SearchHit;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's full-text index is filled in batches, not by each message's commit, and a search still sees every message
 * stored before it.
 */
class SqliteSearchIndexIT {
    @TempDir
    Path dir;

    Database db;
    JdbcConversationStore store;
    JdbcConversationSearch search;
    final String alice = newUser();

    @BeforeEach
    void open() {
        db = Database.open("jdbc:sqlite:" + dir.resolve("baton.db"));
        store = new JdbcConversationStore(db);
        search = new JdbcConversationSearch(db);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void a_message_commit_leaves_the_index_alone_and_a_search_still_finds_the_message() {
        Session s = started();
        store.appendUserMessage(userMessage(s, "We discussed photosynthesis in green plants", T0));

        assertThat(indexed()).as("indexed by the commit").isZero();
        assertThat(found("photosynthesis")).containsExactly(s.id());
        assertThat(indexed()).isEqualTo(1);
    }

    @Test
    void catching_up_takes_every_message_stored_since_in_batches() {
        Session s = started();
        int stored = SqliteSearchIndex.BATCH * 2 + 5;
        for (int i = 0; i < stored; i++) store.appendUserMessage(userMessage(s, "note " + i, T0.plusSeconds(i)));

        assertThat(SqliteSearchIndex.catchUp(db)).isEqualTo(stored);
        assertThat(indexed()).isEqualTo(stored);
        assertThat(SqliteSearchIndex.catchUp(db)).as("nothing left").isZero();
    }

    @Test
    void a_message_that_takes_the_rowid_of_a_deleted_one_is_indexed() {
        Session kept = started();
        store.appendUserMessage(userMessage(kept, "first words", T0));
        Session deleted = started();
        store.appendUserMessage(userMessage(deleted, "last words", T0.plusSeconds(1)));
        SqliteSearchIndex.catchUp(db);
        store.deleteSession(alice, deleted.id());

        // the newest row is gone, so SQLite gives the next message its rowid again
        store.appendUserMessage(userMessage(kept, "photosynthesis after all", T0.plusSeconds(2)));

        assertThat(found("photosynthesis")).containsExactly(kept.id());
        assertThat(found("last")).isEmpty();
    }

    @Test
    void changed_content_is_found_by_its_new_words_whether_or_not_it_was_indexed_yet() {
        Session s = started();
        Message indexedOne = store.appendUserMessage(userMessage(s, "apples", T0));
        SqliteSearchIndex.catchUp(db);
        Message pending = store.appendUserMessage(userMessage(s, "bananas", T0.plusSeconds(1)));

        setContent(indexedOne, "cherries");
        setContent(pending, "dates");

        assertThat(found("apples")).isEmpty();
        assertThat(found("bananas")).isEmpty();
        assertThat(found("cherries")).containsExactly(s.id());
        assertThat(found("dates")).containsExactly(s.id());
    }

    @Test
    void the_job_indexes_new_messages_without_a_search() {
        Session s = started();
        try (var job = SqliteSearchIndex.start(db, Duration.ofMillis(20))) {
            store.appendUserMessage(userMessage(s, "photosynthesis", T0));

            await().atMost(Duration.ofSeconds(30)).until(() -> indexed() == 1);
        }
    }

    private Session started() {
        Session s = session(alice, "tutor", T0);
        store.createSession(s);
        return s;
    }

    private List<String> found(String word) {
        return search.search("tenant-1", alice, word, null, 5).stream()
                .map(SearchHit::sessionId)
                .toList();
    }

    private long indexed() {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM messages_fts");
                    var rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    private void setContent(Message m, String content) {
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE messages SET content = ? WHERE id = ?")) {
                ps.setString(1, content);
                ps.setString(2, m.id());
                return ps.executeUpdate();
            }
        });
    }
}
