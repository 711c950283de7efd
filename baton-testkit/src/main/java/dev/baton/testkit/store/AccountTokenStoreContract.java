package dev.baton.testkit.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.tool.account.AccountToken;
import dev.baton.core.tool.account.AccountTokenStore;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every {@link AccountTokenStore} must do: keep one sealed token per user and server, replace it on save while
 * keeping when the account was first connected, list and delete only the caller's own, and tell one user (or tenant)
 * from another with the same names elsewhere. Run by baton-store-jdbc against SQLite and PostgreSQL and by baton-mcp
 * against {@code InMemoryAccountTokens}.
 *
 * <p>Subclasses give the store under test, which may be shared by all tests of the class (each test has its own
 * user).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AccountTokenStoreContract {
    private final Instant t0 = Instant.parse("2026-01-01T00:00:00.123456Z");
    private String user;
    private int users;

    /** The store under test. */
    protected abstract AccountTokenStore store();

    @BeforeEach
    void freshUser() {
        user = "user-" + users++;
    }

    @Test
    void a_saved_token_is_found_by_its_user_and_server_only() {
        AccountToken saved = new AccountToken("acme", user, "notes", "v1.k1.sealed", t0, t0);
        store().save(saved);

        assertThat(store().find("acme", user, "notes")).contains(saved);
        assertThat(store().find("acme", user, "calendar")).isEmpty();
        assertThat(store().find("acme", user + "-other", "notes")).isEmpty();
        assertThat(store().find("other-tenant", user, "notes")).isEmpty();
    }

    @Test
    void saving_again_replaces_the_tokens_and_keeps_the_first_connection_time() {
        store().save(new AccountToken("acme", user, "notes", "v1.k1.first", t0, t0));
        store().save(new AccountToken(
                "acme", user, "notes", "v1.k1.refreshed", t0.plusSeconds(60), t0.plusSeconds(60)));

        AccountToken found = store().find("acme", user, "notes").orElseThrow();
        assertThat(found.sealed()).isEqualTo("v1.k1.refreshed");
        assertThat(found.connectedAt()).isEqualTo(t0);
        assertThat(found.updatedAt()).isEqualTo(t0.plusSeconds(60));
    }

    @Test
    void a_user_lists_only_their_own_accounts_by_server_name() {
        store().save(new AccountToken("acme", user, "notes", "a", t0, t0));
        store().save(new AccountToken("acme", user, "calendar", "b", t0, t0));
        store().save(new AccountToken("acme", user + "-other", "notes", "c", t0, t0));
        store().save(new AccountToken("other-tenant", user, "drive", "d", t0, t0));

        assertThat(store().list("acme", user)).extracting(AccountToken::server).containsExactly("calendar", "notes");
    }

    @Test
    void delete_removes_only_that_users_token_and_says_whether_there_was_one() {
        store().save(new AccountToken("acme", user, "notes", "a", t0, t0));
        store().save(new AccountToken("acme", user + "-other", "notes", "b", t0, t0));

        assertThat(store().delete("acme", user, "notes")).isTrue();
        assertThat(store().delete("acme", user, "notes")).isFalse();
        assertThat(store().find("acme", user, "notes")).isEmpty();
        assertThat(store().find("acme", user + "-other", "notes")).isPresent();
    }
}
