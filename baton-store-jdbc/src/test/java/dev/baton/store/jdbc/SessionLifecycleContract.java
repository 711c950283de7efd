package dev.baton.store.jdbc;

import static dev.baton.testkit.store.ConversationFixtures.newUser;
import static dev.baton.testkit.store.ConversationFixtures.userMessage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Session;
import dev.baton.core.id.Ids;
import dev.baton.runtime.session.SearchHit;
import dev.baton.runtime.session.SessionLifecycleStore;
import dev.baton.runtime.session.SessionTerms;
import dev.baton.testkit.store.SessionLifecycleStoreContract;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The session lifecycle contract on {@link JdbcSessionLifecycle}, and what {@link JdbcConversationSearch} must do, on
 * every database. Subclasses provide a database per class.
 */
abstract class SessionLifecycleContract extends SessionLifecycleStoreContract {
    private static final Duration DAY = Duration.ofHours(24);

    Database db;
    JdbcConversationStore store;
    JdbcSessionLifecycle lifecycle;
    JdbcConversationSearch search;

    protected abstract String createDatabase();

    protected abstract void dropDatabase();

    @BeforeAll
    void open() {
        db = Database.open(createDatabase());
        store = new JdbcConversationStore(db);
        lifecycle = new JdbcSessionLifecycle(db);
        search = new JdbcConversationSearch(db);
    }

    @AfterAll
    void close() {
        if (db != null) db.close();
        dropDatabase();
    }

    @Override
    protected ConversationStore conversations() {
        return store;
    }

    @Override
    protected SessionLifecycleStore lifecycle() {
        return lifecycle;
    }

    @Override
    protected SessionLifecycleStore anotherInstance() {
        return new JdbcSessionLifecycle(db);
    }

    private Session start(String user, Instant at, SessionTerms terms) {
        Session s = Session.start(Ids.newId(), "tenant-1", user, "study", null, at);
        lifecycle.start(s, terms);
        return s;
    }

    private static SessionTerms idleAfter(Duration d) {
        return new SessionTerms("{\"x\":1}", null, null, d);
    }

    @Test
    void search_finds_the_users_own_earlier_conversations_only() {
        String alice = newUser();
        String mallory = newUser();
        Instant t = Instant.parse("2030-07-01T00:00:00Z");
        Session earlier = start(alice, t, idleAfter(DAY));
        store.appendUserMessage(userMessage(earlier, "We discussed photosynthesis in green plants", t));
        Session other = start(alice, t.plusSeconds(60), idleAfter(DAY));
        store.appendUserMessage(userMessage(other, "Something about the French revolution", t.plusSeconds(61)));
        Session current = start(alice, t.plusSeconds(120), idleAfter(DAY));
        store.appendUserMessage(userMessage(current, "Remind me about photosynthesis", t.plusSeconds(121)));
        Session malloryS = start(mallory, t, idleAfter(DAY));
        store.appendUserMessage(userMessage(malloryS, "mallory's photosynthesis secret", t));

        List<SearchHit> hits = search.search("tenant-1", alice, "Photosynthesis, plant!", current.id(), 5);

        assertThat(hits).extracting(SearchHit::sessionId).containsExactly(earlier.id());
        assertThat(hits.getFirst().snippet()).containsIgnoringCase("photosynthesis");
        assertThat(hits.getFirst().startedAt()).isEqualTo(t);
        // words, not syntax: quotes and operators cannot break out; nothing of mallory's shows up
        assertThat(search.search("tenant-1", alice, "\" OR mallory* NOT -", null, 5))
                .isEmpty();
        assertThat(search.search("tenant-1", mallory, "photosynthesis", null, 5))
                .extracting(SearchHit::sessionId)
                .containsExactly(malloryS.id());
        assertThat(search.search("tenant-2", alice, "photosynthesis", null, 5)).isEmpty();
        // a deleted conversation is no longer found
        store.deleteSession(alice, earlier.id());
        assertThat(search.search("tenant-1", alice, "photosynthesis", current.id(), 5))
                .isEmpty();
    }
}
