package dev.baton.testkit.store;

import static dev.baton.testkit.store.ConversationFixtures.T0;
import static dev.baton.testkit.store.ConversationFixtures.newUser;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.conversation.IdempotencyStore;
import dev.baton.core.conversation.IdempotencyStore.StoredResponse;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The part of the store contract about idempotency keys: claimed, completed or released, per user. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class IdempotencyStoreContract {

    /** The idempotency store under test. */
    protected abstract IdempotencyStore idempotency();

    @Test
    void an_idempotency_key_keeps_its_first_response_per_user() {
        String user = newUser();
        var first = new StoredResponse("hash-1", 200, "{\"answer\":1}", T0);

        assertThat(idempotency().find(user, "k1")).isEmpty();
        assertThat(idempotency().save(user, "k1", first)).isTrue();
        assertThat(idempotency().save(user, "k1", new StoredResponse("hash-2", 500, "other", T0.plusSeconds(1))))
                .isFalse();

        StoredResponse stored = idempotency().find(user, "k1").orElseThrow();
        assertThat(stored)
                .isEqualTo(new StoredResponse("hash-1", 200, "{\"answer\":1}", T0.truncatedTo(ChronoUnit.MICROS)));
        assertThat(idempotency().find(newUser(), "k1")).isEmpty();
        assertThat(idempotency().save(newUser(), "k1", first))
                .as("keys are per user")
                .isTrue();
    }

    @Test
    void a_claimed_key_is_held_until_it_completes_or_is_released() {
        String user = newUser();
        assertThat(idempotency().claim(user, "k2", "hash-1", T0)).isTrue();
        assertThat(idempotency().claim(user, "k2", "hash-1", T0))
                .as("a second claim")
                .isFalse();
        assertThat(idempotency().find(user, "k2").orElseThrow().inProgress()).isTrue();

        idempotency().release(user, "k2");
        assertThat(idempotency().find(user, "k2")).isEmpty();

        assertThat(idempotency().claim(user, "k2", "hash-1", T0)).isTrue();
        idempotency().complete(user, "k2", 200, "{\"answer\":2}");
        StoredResponse done = idempotency().find(user, "k2").orElseThrow();
        assertThat(done.inProgress()).isFalse();
        assertThat(done.body()).isEqualTo("{\"answer\":2}");
        // a finished response is never released or overwritten
        idempotency().release(user, "k2");
        idempotency().complete(user, "k2", 500, "other");
        assertThat(idempotency().find(user, "k2").orElseThrow().body()).isEqualTo("{\"answer\":2}");
    }
}
