package dev.baton.server.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.Session;
import dev.baton.core.store.StoreUnavailableException;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.approval.ApprovalDecision;
import dev.baton.runtime.approval.ApprovalResult;
import dev.baton.runtime.approval.Approvals;
import dev.baton.runtime.approval.ToolApproval;
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
import dev.baton.server.http.SseWriter;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /v1/responses} and {@code GET /v1/responses/{id}}. A response is one turn of a Baton session run through
 * {@link Conversations#chat}, or the rest of a paused turn run through {@link Approvals#decide} when the input answers
 * its {@code mcp_approval_request} items; either way every rule is the runtime's. After each response, where it left
 * its session is recorded under its id ({@link HistoryKeys}), so {@code previous_response_id} and the GET find it on
 * any instance, for the caller only.
 */
final class Responses {
    private static final Logger log = LoggerFactory.getLogger(Responses.class);

    private final Conversations conversations;
    private final Approvals approvals;
    private final Sessions sessions;
    private final AgentRegistry agents;
    private final HistoryKeys keys;
    private final OpenAiBodies bodies;
    private final SseStreams streams;
    private final Clock clock;

    /** @param approvals null when tool calls never wait for approval */
    Responses(
            Conversations conversations,
            Approvals approvals,
            Sessions sessions,
            AgentRegistry agents,
            HistoryKeys keys,
            OpenAiBodies bodies,
            SseStreams streams,
            Clock clock) {
        this.conversations = conversations;
        this.approvals = approvals;
        this.sessions = sessions;
        this.agents = agents;
        this.keys = keys;
        this.bodies = bodies;
        this.streams = streams;
        this.clock = clock;
    }

    /** What a request runs: a message's turn, or decisions that may go on with a paused turn. */
    @FunctionalInterface
    private interface Run {
        /** @return the turn that ran, or null when the decisions were recorded and other calls still wait */
        SendResult.Ran run(TurnListener listener);
    }

    void create(Context ctx) {
        Principal caller = Caller.with(ctx, Sessions.WRITE);
        ResponsesRequest request = ResponsesRequest.parse(bodies.read(ctx));
        String sessionId = session(caller, request);
        String agentId = sessionId != null
                ? null
                : agents.usableBy(request.model(), caller)
                        .orElseThrow(() -> InvalidRequest.unknownModel(request.model()))
                        .id();
        ResponseFrame frame = ResponseFrame.create(clock.instant().getEpochSecond(), request.previousResponseId());
        SendOptions options = SendOptions.of(ctx.attribute(RequestIds.ATTRIBUTE));
        AtomicReference<List<ToolApproval>> stillPending = new AtomicReference<>(List.of());
        Run run;
        if (request.approvals().isEmpty()) {
            var target = new Conversations.ChatTarget(sessionId, agentId);
            run = listener -> (SendResult.Ran) conversations.chat(caller, target, request.message(), options, listener);
        } else {
            run = listener -> decide(caller, sessionId, request.approvals(), options, listener, stillPending);
        }
        if (request.stream()) stream(ctx, caller, frame, sessionId, run, stillPending);
        else json(ctx, caller, frame, sessionId, run, stillPending);
    }

    /** The session the request continues, or null for a new one. */
    private String session(Principal caller, ResponsesRequest request) {
        if (request.conversationId() != null) return request.conversationId();
        if (request.previousResponseId() == null) return null;
        return keys.find(caller.userId(), ResponseFrame.key(caller, request.previousResponseId()))
                .map(HistoryKeys.Position::sessionId)
                .orElseThrow(() -> new InvalidRequest(
                        404,
                        "not_found",
                        "previous_response_id",
                        "No response found with id '" + request.previousResponseId() + "'."));
    }

    private SendResult.Ran decide(
            Principal caller,
            String sessionId,
            List<ResponsesRequest.ApprovalAnswer> answers,
            SendOptions options,
            TurnListener listener,
            AtomicReference<List<ToolApproval>> stillPending) {
        if (approvals == null)
            throw InvalidRequest.of("input", "tool calls never wait for approval in this deployment");
        for (int i = 0; i < answers.size(); i++) {
            var answer = answers.get(i);
            ApprovalResult result = approvals.decide(
                    caller,
                    sessionId,
                    answer.requestId(),
                    new ApprovalDecision(answer.approve(), null, answer.reason()),
                    options,
                    i == answers.size() - 1 ? listener : TurnListener.NONE);
            switch (result) {
                case ApprovalResult.Resumed resumed -> {
                    return resumed.ran();
                }
                case ApprovalResult.Recorded recorded -> stillPending.set(recorded.stillPending());
            }
        }
        return null;
    }

    private void json(
            Context ctx,
            Principal caller,
            ResponseFrame frame,
            String sessionId,
            Run run,
            AtomicReference<List<ToolApproval>> stillPending) {
        SendResult.Ran ran = run.run(new QuotaHeaders(ctx));
        if (ran == null) {
            ArrayNode output = ResponsesWire.output();
            stillPending.get().forEach(call -> output.add(ResponsesWire.approvalRequest(call)));
            Session session = sessions.get(caller, sessionId);
            remember(caller, frame, new HistoryKeys.Position(session.id(), null));
            ctx.json(frame.response("completed", session.agentId(), output, null, session.id()));
            return;
        }
        TurnOutcome outcome = ran.outcome();
        ArrayNode output = ResponsesWire.output();
        switch (outcome.terminal()) {
            case TurnEvent.Failed failed -> {
                ErrorResponses.turnFailed(ctx, failed);
                return;
            }
            case TurnEvent.AwaitingApproval paused ->
                paused.pending().forEach(call -> output.add(ResponsesWire.approvalRequest(call)));
            case TurnEvent.Done done ->
                output.add(ResponsesWire.message(frame.messageId(), "completed", outcome.answer()));
            default -> throw new IllegalStateException("not a terminal event: " + outcome.terminal());
        }
        remember(caller, frame, ChatCompletions.position(ran));
        ctx.json(frame.response(
                "completed",
                ran.session().agentId(),
                output,
                ResponsesWire.usage(outcome.usage()),
                ran.session().id()));
    }

    private void stream(
            Context ctx,
            Principal caller,
            ResponseFrame frame,
            String sessionId,
            Run run,
            AtomicReference<List<ToolApproval>> stillPending) {
        ResponseEvents events = new ResponseEvents(frame);
        SendResult.Ran ran;
        try (SseTurnListener sse = new SseTurnListener(ctx, streams, events)) {
            ran = run.run(new TurnListener() {
                @Override
                public void admitted(AdmittedTurn turn) {
                    events.admitted(turn.session());
                    sse.admitted(turn);
                }

                @Override
                public void onEvent(TurnEvent event) {
                    sse.onEvent(event);
                }
            });
            if (ran != null) {
                ObjectNode response = events.finish(ran.outcome());
                if (response != null) {
                    // recorded before the client hears the end: it may continue from this response at once
                    remember(caller, frame, ChatCompletions.position(ran));
                    events.completed(response);
                }
                return;
            }
        }
        Session session = sessions.get(caller, sessionId);
        remember(caller, frame, new HistoryKeys.Position(session.id(), null));
        ctx.status(200).contentType("text/event-stream; charset=utf-8").header("Cache-Control", "no-cache");
        try (SseWriter writer = streams.open(ctx.res().getOutputStream(), () -> {}, () -> {})) {
            events.completed(events.stillPending(writer, session.agentId(), session.id(), stillPending.get()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code GET /v1/responses/{id}}: the caller's response as it stands (its usage is not kept). */
    void get(Context ctx) {
        Principal caller = Caller.with(ctx, Sessions.READ);
        String id = ctx.pathParam("id");
        HistoryKeys.Position position = keys.find(caller.userId(), ResponseFrame.key(caller, id))
                .orElseThrow(
                        () -> new InvalidRequest(404, "not_found", null, "No response found with id '" + id + "'."));
        Session session;
        try {
            session = sessions.get(caller, position.sessionId());
        } catch (RefusalException e) {
            throw new InvalidRequest(404, "not_found", null, "No response found with id '" + id + "'.");
        }
        ResponseFrame frame = new ResponseFrame(id, 0, null);
        ArrayNode output = ResponsesWire.output();
        if (position.seq() == null) {
            if (approvals != null)
                approvals
                        .pending(caller, session.id())
                        .forEach(call -> output.add(ResponsesWire.approvalRequest(call)));
        } else {
            List<Message> answer = sessions.messages(caller, session.id(), position.seq() + 1, 1)
                    .messages();
            if (!answer.isEmpty()) {
                Message m = answer.getFirst();
                output.add(ResponsesWire.message(frame.messageId(), "completed", m.content()));
                ObjectNode response = frame.response("completed", session.agentId(), output, null, session.id());
                response.put("created_at", m.createdAt().getEpochSecond());
                ctx.json(response);
                return;
            }
        }
        ctx.json(frame.response("completed", session.agentId(), output, null, session.id()));
    }

    private void remember(Principal caller, ResponseFrame frame, HistoryKeys.Position position) {
        try {
            keys.record(caller.userId(), ResponseFrame.key(caller, frame.id()), position, clock.instant());
        } catch (StoreUnavailableException e) {
            // the answer stands; continuing from this response then fails as unknown
            log.warn("response {} not recorded: {}", frame.id(), e.getMessage());
        }
    }
}
