package dev.baton.server.openai;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.store.StoreUnavailableException;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.conversation.AdmittedTurn;
import dev.baton.runtime.conversation.Conversations;
import dev.baton.runtime.conversation.HistoryKeys;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.runtime.conversation.TurnListener;
import dev.baton.runtime.session.Sessions;
import dev.baton.server.http.Caller;
import dev.baton.server.http.ErrorResponses;
import dev.baton.server.http.QuotaHeaders;
import dev.baton.server.http.RequestIds;
import dev.baton.server.http.SseStreams;
import dev.baton.server.http.SseTurnListener;
import io.javalin.http.Context;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /v1/chat/completions}: the model names the agent, the history names the session, and the new message runs
 * one turn through {@link Conversations#chat}, so every rule (permissions, limits, budgets, hooks, approvals) is the
 * runtime's. The session is the one the client names ({@code X-Conversation-ID} header or
 * {@code metadata.conversation_id}), else the one whose history digest ({@link HistoryDigest}) the earlier messages
 * match, else a new one; after each answered turn the digest of the history with the new message and its answer is
 * recorded, so the next request finds the session with one indexed read. Every answer names its session in
 * {@code X-Conversation-ID}.
 */
final class ChatCompletions {
    private static final Logger log = LoggerFactory.getLogger(ChatCompletions.class);
    static final String CONVERSATION_HEADER = "X-Conversation-ID";

    private final Conversations conversations;
    private final AgentRegistry agents;
    private final HistoryKeys keys;
    private final OpenAiBodies bodies;
    private final SseStreams streams;
    private final Clock clock;

    ChatCompletions(
            Conversations conversations,
            AgentRegistry agents,
            HistoryKeys keys,
            OpenAiBodies bodies,
            SseStreams streams,
            Clock clock) {
        this.conversations = conversations;
        this.agents = agents;
        this.keys = keys;
        this.bodies = bodies;
        this.streams = streams;
        this.clock = clock;
    }

    void handle(Context ctx) {
        Principal caller = Caller.with(ctx, Sessions.WRITE);
        ChatRequest request = ChatRequest.parse(bodies.read(ctx));
        AgentDefinition agent = agents.usableBy(request.model(), caller)
                .orElseThrow(() -> InvalidRequest.unknownModel(request.model()));
        String named = named(ctx, request);
        if (named != null) {
            // a client that names its conversation keeps naming it: nothing to hash, no digest to record
            run(ctx, caller, request, new Conversations.ChatTarget(named, null), null);
            return;
        }
        HistoryDigest history = HistoryDigest.start(caller.tenantId(), caller.userId(), agent.id());
        for (ChatRequest.Entry e : request.history()) history = history.then(e.role(), e.text());
        run(ctx, caller, request, target(caller, request, agent, history), history.then("user", request.message()));
    }

    private void run(
            Context ctx, Principal caller, ChatRequest request, Conversations.ChatTarget target, HistoryDigest asked) {
        if (request.stream()) stream(ctx, caller, request, target, asked);
        else json(ctx, caller, request, target, asked);
    }

    /** The session the history continues, or a new one. */
    private Conversations.ChatTarget target(
            Principal caller, ChatRequest request, AgentDefinition agent, HistoryDigest history) {
        if (request.history().isEmpty()) return new Conversations.ChatTarget(null, agent.id());
        // a history Baton never answered (edited, or begun elsewhere) starts a new session with the new message
        return keys.find(caller.userId(), history.hex())
                .map(position -> new Conversations.ChatTarget(position.sessionId(), null))
                .orElseGet(() -> new Conversations.ChatTarget(null, agent.id()));
    }

    /** The session the client names, or null. */
    private static String named(Context ctx, ChatRequest request) {
        String header = ctx.header(CONVERSATION_HEADER);
        return header != null && !header.isBlank() ? header : request.conversationId();
    }

    private void json(
            Context ctx, Principal caller, ChatRequest request, Conversations.ChatTarget target, HistoryDigest asked) {
        String[] turnId = {null};
        SendResult result =
                conversations.chat(caller, target, request.message(), options(ctx), new QuotaHeaders(ctx, event -> {
                    if (event instanceof TurnEvent.Started s) turnId[0] = s.turnId();
                }));
        SendResult.Ran ran = (SendResult.Ran) result; // no idempotency key is ever sent from here
        String sessionId = ran.session().id();
        ctx.header(CONVERSATION_HEADER, sessionId);
        TurnOutcome outcome = ran.outcome();
        String answer;
        String finish;
        switch (outcome.terminal()) {
            case TurnEvent.Failed failed -> {
                ErrorResponses.turnFailed(ctx, failed);
                return;
            }
            case TurnEvent.AwaitingApproval paused -> {
                answer = ChatCompletionWire.approvalNotice(paused, sessionId);
                finish = "stop";
            }
            case TurnEvent.Done done -> {
                answer = outcome.answer();
                finish = ChatCompletionWire.finishReason(done);
            }
            default -> throw new IllegalStateException("not a terminal event: " + outcome.terminal());
        }
        remember(caller, asked == null ? null : asked.then("assistant", answer), position(ran));
        ctx.json(ChatCompletionWire.completion(
                "chatcmpl-" + turnId[0],
                clock.instant().getEpochSecond(),
                ran.session().agentId(),
                answer,
                finish,
                ChatCompletionWire.usage(outcome.usage())));
    }

    private void stream(
            Context ctx, Principal caller, ChatRequest request, Conversations.ChatTarget target, HistoryDigest asked) {
        ChatChunks chunks = new ChatChunks(clock.instant().getEpochSecond(), request.includeUsage());
        try (SseTurnListener sse = new SseTurnListener(ctx, streams, chunks)) {
            SendResult result = conversations.chat(caller, target, request.message(), options(ctx), new TurnListener() {
                @Override
                public void admitted(AdmittedTurn turn) {
                    ctx.header(CONVERSATION_HEADER, turn.session().id());
                    chunks.admitted(turn.session());
                    sse.admitted(turn);
                }

                @Override
                public void onEvent(TurnEvent event) {
                    sse.onEvent(event);
                }
            });
            SendResult.Ran ran = (SendResult.Ran) result;
            // recorded before the stream's end reaches the client, which may send its next message at once
            if (chunks.finish(ran.outcome())) {
                remember(caller, asked == null ? null : asked.then("assistant", chunks.text()), position(ran));
                chunks.done();
            }
        }
    }

    /** @param digest null when there is nothing to record (the client names its conversation) */
    private void remember(Principal caller, HistoryDigest digest, HistoryKeys.Position position) {
        if (digest == null) return;
        try {
            keys.record(caller.userId(), digest.hex(), position, clock.instant());
        } catch (StoreUnavailableException e) {
            // the answer stands; the client's next message then starts a new session
            log.warn("session {}: history digest not recorded: {}", position.sessionId(), e.getMessage());
        }
    }

    /** Where the turn left its session: at its answer, or nowhere yet when it paused. */
    static HistoryKeys.Position position(SendResult.Ran ran) {
        var answer = ran.outcome().assistantMessage();
        return new HistoryKeys.Position(ran.session().id(), answer == null ? null : answer.seq());
    }

    private static SendOptions options(Context ctx) {
        return SendOptions.of(ctx.attribute(RequestIds.ATTRIBUTE));
    }
}
