package dev.baton.testkit.store;

import static dev.baton.testkit.store.ConversationFixtures.T0;
import static dev.baton.testkit.store.ConversationFixtures.newUser;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.runtime.conversation.HistoryKeys;
import dev.baton.runtime.conversation.HistoryKeys.Position;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The contract of {@link HistoryKeys}: a digest finds where its history ends, per user, the newest recording wins. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class HistoryKeysContract {

    /** The history keys under test. */
    protected abstract HistoryKeys keys();

    @Test
    void a_recorded_digest_finds_its_session_for_its_user_only() {
        String user = newUser();
        assertThat(keys().find(user, "d1")).isEmpty();

        keys().record(user, "d1", new Position("session-1", 4L), T0);
        keys().record(user, "paused", new Position("session-1", null), T0);

        assertThat(keys().find(user, "d1")).contains(new Position("session-1", 4L));
        assertThat(keys().find(user, "paused")).contains(new Position("session-1", null));
        assertThat(keys().find(user, "d2")).isEmpty();
        assertThat(keys().find(newUser(), "d1")).as("another user's digest").isEmpty();
    }

    @Test
    void recording_a_digest_again_points_it_at_the_newer_session() {
        String user = newUser();
        keys().record(user, "d1", new Position("session-1", 2L), T0);
        keys().record(user, "d1", new Position("session-2", 6L), T0.plusSeconds(5));

        assertThat(keys().find(user, "d1")).contains(new Position("session-2", 6L));
    }

    @Test
    void digests_older_than_the_cutoff_are_forgotten() {
        String user = newUser();
        keys().record(user, "old", new Position("session-1", 2L), T0.minusSeconds(3600));
        keys().record(user, "new", new Position("session-1", 4L), T0.plusSeconds(3600));

        assertThat(keys().deleteOlderThan(T0)).isGreaterThanOrEqualTo(1);

        assertThat(keys().find(user, "old")).isEmpty();
        assertThat(keys().find(user, "new")).contains(new Position("session-1", 4L));
    }
}
