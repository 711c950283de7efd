package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.db.RedisTestServer;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A session's turn lock held by an instance that dies (it never unlocks) stops refusing other instances once its
 * time to live (the request timeout plus a margin) runs out: the session is not busy forever after a kill -9.
 */
class SharedTurnsIT {

    @Test
    void a_lock_its_instance_never_releases_expires_after_its_time_to_live() throws Exception {
        RedisTestServer.require();
        String prefix = "baton-it:" + UUID.randomUUID() + ":";
        SharedRedis crashing = SharedRedis.create("redis://127.0.0.1:6379");
        try (SharedRedis survivor = SharedRedis.create("redis://127.0.0.1:6379");
                SharedTurns alive = SharedTurns.connect(survivor, new SharedTurnSettings(prefix), id -> {})) {
            SharedTurns dying = SharedTurns.connect(crashing, new SharedTurnSettings(prefix), id -> {});
            assertThat(dying.lock("s-1", Duration.ofSeconds(3))).isNotNull();
            // the instance dies holding the lock: its connection goes, nothing unlocks
            crashing.close();

            assertThat(alive.lock("s-1", Duration.ofSeconds(30)))
                    .as("still within its time to live")
                    .isNull();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            String token = null;
            while (token == null && System.nanoTime() < deadline) {
                token = alive.lock("s-1", Duration.ofSeconds(30));
                if (token == null) Thread.sleep(50); // polling Redis for the expiry, bounded by the deadline
            }
            assertThat(token).as("the lock expired with its time to live").isNotNull();
            alive.unlock("s-1", token);
        }
    }

    @Test
    void a_dead_boots_lock_is_broken_by_its_name_at_once_and_no_other_lock_is() {
        RedisTestServer.require();
        String prefix = "baton-it:" + UUID.randomUUID() + ":";
        SharedRedis crashing = SharedRedis.create("redis://127.0.0.1:6379");
        try (SharedRedis shared = SharedRedis.create("redis://127.0.0.1:6379");
                SharedTurns taker = SharedTurns.connect(shared, new SharedTurnSettings(prefix), "b/boot-1", id -> {});
                SharedTurns live = SharedTurns.connect(shared, new SharedTurnSettings(prefix), "c/boot-1", id -> {});
                SharedTurns unnamed = SharedTurns.connect(shared, new SharedTurnSettings(prefix), id -> {})) {
            SharedTurns dead = SharedTurns.connect(crashing, new SharedTurnSettings(prefix), "a:x/boot-1", id -> {});
            assertThat(dead.lock("s-1", Duration.ofMinutes(10))).isNotNull();
            crashing.close();
            String liveToken = live.lock("s-2", Duration.ofMinutes(10));
            assertThat(liveToken).isNotNull();

            assertThat(taker.lock("s-1", Duration.ofMinutes(1)))
                    .as("held by the dead boot")
                    .isNull();
            assertThat(taker.breakHeldBy("s-1", "a:x/boot-0"))
                    .as("an earlier boot's name")
                    .isFalse();
            assertThat(taker.breakHeldBy("s-1", "a")).as("a prefix of the name").isFalse();
            assertThat(taker.breakHeldBy("s-2", "a:x/boot-1"))
                    .as("another holder's lock")
                    .isFalse();
            assertThat(taker.breakHeldBy("s-3", "a:x/boot-1")).as("no lock").isFalse();
            assertThat(taker.lock("s-2", Duration.ofMinutes(1)))
                    .as("the live lock is intact")
                    .isNull();

            assertThat(taker.breakHeldBy("s-1", "a:x/boot-1")).isTrue();
            String token = taker.lock("s-1", Duration.ofMinutes(1));
            assertThat(token).as("taken at once, not after ten minutes").isNotNull();
            assertThat(unnamed.breakHeldBy("s-1", "b/boot-1"))
                    .as("the taker's own lock, by its name")
                    .isTrue();
            live.unlock("s-2", liveToken);
        }
    }
}
