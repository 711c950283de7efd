package dev.baton.bench;

import dev.baton.testkit.http.H2cConnection;
import dev.baton.testkit.http.SseStream;

/**
 * One streamed turn ({@code POST /v1/chat} with {@code stream: true}, a new conversation) as a stream of a shared
 * HTTP/2 cleartext connection: thousands of them multiplexed on a few sockets, where {@link RawSseTurn} needs one
 * socket each.
 */
final class H2cSseTurn {
    private H2cSseTurn() {}

    /** A whole turn, read to its {@code done} or {@code error} event, on {@code connection}. */
    static RawSseTurn.Result run(H2cConnection connection, String token, String message) {
        SseStream stream = connection.post(
                "/v1/chat", token, "{\"message\":\"" + message + "\",\"agentId\":\"tasks\",\"stream\":true}", true);
        String ended = stream.ended().join();
        int status = stream.response().isCompletedExceptionally()
                ? 0
                : stream.response().join().status();
        return new RawSseTurn.Result(status, ended, stream.headersNanos(), stream.firstChunkNanos(), stream.endNanos());
    }
}
