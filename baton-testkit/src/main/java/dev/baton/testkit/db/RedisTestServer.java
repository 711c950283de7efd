package dev.baton.testkit.db;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.junit.jupiter.api.Assumptions;

/**
 * The local Redis (127.0.0.1:6379) for tests that share state across instances. When it is not reachable the
 * test is skipped — unless the environment says {@code CI=true}, where a missing Redis is a failure, as for
 * {@link PostgresTestDatabase}.
 */
public final class RedisTestServer {
    public static final String URL = "redis://127.0.0.1:6379";

    private RedisTestServer() {}

    /** Returns the Redis URL, or skips (fails on CI) the calling test when Redis is not running. */
    public static String require() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", 6379), 1_000);
        } catch (IOException e) {
            String message = "Redis is not reachable at 127.0.0.1:6379 (" + e.getMessage() + ")";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) fail(message + "; CI=true requires it");
            Assumptions.abort(message + "; skipping this test (set CI=true to make it a failure)");
        }
        return URL;
    }
}
