package dev.baton.server.it;

import dev.baton.testkit.db.RedisTestServer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The environment the tests' server processes start with: their database, the simulator as their OpenAI-compatible
 * model, the tests' JWT secret and their config file; with the local Redis when several instances share session locks
 * and turn leases (each test's key prefix is in its config).
 */
final class ServerEnv {
    private ServerEnv() {}

    /** A mutable map, so a test can add what it needs. */
    static Map<String, String> of(String dbUrl, String modelUrl, Path config) {
        Map<String, String> env = new HashMap<>();
        env.put("BATON_DB_URL", dbUrl);
        env.put("BATON_JWT_SECRET", TestServer.SECRET);
        env.put("OPENAI_API_KEY", "sk-test");
        env.put("OPENAI_BASE_URL", modelUrl);
        env.put("BATON_CONFIG", config.toString());
        return env;
    }

    /** As {@link #of}, with the local Redis. */
    static Map<String, String> withRedis(String dbUrl, String modelUrl, Path config) {
        Map<String, String> env = of(dbUrl, modelUrl, config);
        env.put("BATON_REDIS_URL", RedisTestServer.URL);
        return env;
    }
}
