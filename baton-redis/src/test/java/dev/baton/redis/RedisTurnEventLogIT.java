package dev.baton.redis;

import dev.baton.runtime.stream.TurnEventLog;
import dev.baton.runtime.stream.TurnEventLogSettings;
import dev.baton.testkit.db.RedisTestServer;
import dev.baton.testkit.stream.TurnEventLogContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The turn event log contract on Redis Streams (the Redis at 127.0.0.1:6379), each test under a fresh key prefix; the
 * other instance is a second log of its own over the same client.
 */
class RedisTurnEventLogIT extends TurnEventLogContract {
    private static SharedRedis redis;

    @BeforeAll
    static void connect() {
        redis = SharedRedis.create(RedisTestServer.require());
    }

    @AfterAll
    static void disconnect() {
        if (redis != null) redis.close();
    }

    @Override
    protected TurnEventLog open(TurnEventLogSettings settings) {
        return RedisTurnEventLog.connect(redis, settings);
    }

    @Override
    protected TurnEventLog another(TurnEventLog log, TurnEventLogSettings settings) {
        return RedisTurnEventLog.connect(redis, settings);
    }
}
