package dev.baton.server.api;

import dev.baton.core.auth.Principal;
import dev.baton.runtime.stream.FollowedTurns;
import dev.baton.server.http.Caller;
import dev.baton.server.http.SseStreams;
import dev.baton.server.http.SseWriter;
import dev.baton.wire.FollowedTurnEvents;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.Objects;

/**
 * {@code GET /v1/sessions/{id}/turns/{turnId}/events}: a turn's events as SSE, from the {@link TurnEventLog} — those
 * after {@code Last-Event-ID} (all without it), then live until the turn's {@code done} or {@code error}. A client
 * takes a dropped stream up again this way, and a second client (another tab, or a user with
 * {@value #OBSERVE} in the same tenant) follows a turn; on any instance when the log is in Redis. The stream gets the
 * same heartbeats as a turn's own. Who may follow which turn is the runtime's rule ({@link FollowedTurns}): an unknown
 * turn, one of another session, or one the caller may not see is 404. The log holds the turn's events as the runtime
 * encodes them; each is rendered as SSE here, as the turn's own stream renders it. A client that has seen the turn's
 * end already ({@code Last-Event-ID} at or past its {@code done} or {@code error}) gets 204 at once.
 */
public final class TurnEventRoutes {
    /** Follow any turn of the caller's tenant. */
    public static final String OBSERVE = FollowedTurns.OBSERVE;

    private final FollowedTurns following;
    private final SseStreams streams;

    /** @param following the runtime's, {@code baton.followedTurns()} */
    public TurnEventRoutes(FollowedTurns following, SseStreams streams) {
        this.following = Objects.requireNonNull(following, "following");
        this.streams = streams;
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/sessions/{id}/turns/{turnId}/events", this::follow);
    }

    private void follow(Context ctx) throws IOException {
        Principal caller = Caller.of(ctx);
        FollowedTurns.Followed turn = following.follow(caller, ctx.pathParam("id"), ctx.pathParam("turnId"));
        long after = FollowedTurnEvents.lastEventId(ctx.header("Last-Event-ID"), ctx.queryParam("lastEventId"));
        if (turn.seenToItsEnd(after)) {
            // nothing will follow, ever: 204 also tells a browser's EventSource to stop reconnecting
            ctx.status(204);
            return;
        }
        ctx.status(200);
        ctx.contentType("text/event-stream; charset=utf-8");
        ctx.header("Cache-Control", "no-cache");
        ctx.header("X-Accel-Buffering", "no");
        try (SseWriter out = streams.open(ctx.res().getOutputStream(), () -> {}, () -> {})) {
            FollowedTurnEvents.follow(turn, after, () -> !out.disconnected(), out::send);
        }
    }
}
