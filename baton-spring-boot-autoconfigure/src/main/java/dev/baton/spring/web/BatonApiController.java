package dev.baton.spring.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.turn.TurnEvent;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.runtime.Baton;
import dev.baton.runtime.admission.IdempotencyKey;
import dev.baton.runtime.approval.ApprovalDecision;
import dev.baton.runtime.approval.ApprovalResult;
import dev.baton.runtime.conversation.AdmittedTurn;
import dev.baton.runtime.conversation.Conversations;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.runtime.conversation.TurnListener;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.stream.TurnEventRecorder;
import dev.baton.wire.ApiProblem;
import dev.baton.wire.TurnAnswers;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Duration;
import java.util.function.Function;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The turns of Baton's HTTP API v1, served by the app under {@code baton.api.base-path}: sending a message to a
 * session, the one-shot {@code POST /v1/chat}, and deciding on a tool call held for approval — each answered as one
 * JSON document, or as Server-Sent Events with {@code Accept: text/event-stream}. Statuses, headers and bodies are
 * {@code baton serve}'s (see api.md); every rule — input, idempotency, limits, budgets, session state, one turn per
 * session, deadlines, approvals — is the runtime's.
 */
@RestController
@RequestMapping("${baton.api.base-path:}/v1")
public class BatonApiController implements BatonApiEndpoint {
    /** The header that asks for a stream the turn outlives: a dropped connection does not cancel it. */
    public static final String RESUMABLE = "Baton-Resumable";

    private final Baton baton;
    private final ApiRequests requests;
    private final Duration streamTimeout;
    private final SseHeartbeats heartbeats;

    public BatonApiController(
            Baton baton, CallerResolver callers, int maxBodyBytes, Duration streamTimeout, SseHeartbeats heartbeats) {
        this.baton = baton;
        this.requests = new ApiRequests(callers, maxBodyBytes);
        this.streamTimeout = streamTimeout;
        this.heartbeats = heartbeats;
    }

    record SendMessage(String content) {}

    record ChatRequest(String message, String conversationId, String agentId, Boolean stream) {}

    record Decide(String decision, JsonNode arguments, String comment) {}

    @PostMapping("/sessions/{id}/messages")
    public ResponseEntity<?> send(@PathVariable String id, HttpServletRequest request, HttpServletResponse response) {
        Principal caller = requests.caller(request, response, Sessions.WRITE);
        String raw = requests.body(request);
        SendMessage body = ApiRequests.bind(raw, SendMessage.class);
        SendOptions options = options(request, response, raw);
        return respond(
                request,
                response,
                caller,
                ApiRequests.wantsSse(request),
                false,
                listener -> baton.conversations().send(caller, id, body.content(), options, listener));
    }

    /**
     * {@code {message, conversationId?, agentId?, stream?}}: a turn in the named conversation (a session of the
     * caller's), or in a new one of the agent (the default agent without one); {@code stream} wins over
     * {@code Accept}.
     */
    @PostMapping("/chat")
    public ResponseEntity<?> chat(HttpServletRequest request, HttpServletResponse response) {
        Principal caller = requests.caller(request, response, Sessions.WRITE);
        String raw = requests.body(request);
        ChatRequest body = ApiRequests.bind(raw, ChatRequest.class);
        boolean sse = body.stream() != null ? body.stream() : ApiRequests.wantsSse(request);
        var target = new Conversations.ChatTarget(body.conversationId(), body.agentId());
        SendOptions options = options(request, response, raw);
        return respond(
                request,
                response,
                caller,
                sse,
                true,
                listener -> baton.conversations().chat(caller, target, body.message(), options, listener));
    }

    /**
     * A decision on a held tool call. The last decision a paused turn waited for goes on with it, answered like a
     * message (SSE or JSON); an earlier one is recorded and answered 202 with what still waits.
     */
    @PostMapping("/sessions/{id}/approvals/{callId}")
    public ResponseEntity<?> decide(
            @PathVariable String id,
            @PathVariable String callId,
            HttpServletRequest request,
            HttpServletResponse response) {
        Principal caller = requests.caller(request, response, Sessions.WRITE);
        Decide body = ApiRequests.bind(requests.body(request), Decide.class);
        boolean approve;
        if ("approve".equals(body.decision())) approve = true;
        else if ("deny".equals(body.decision())) approve = false;
        else throw new ApiProblem(400, "invalid_request", "field 'decision' must be \"approve\" or \"deny\"");
        JsonNode arguments = body.arguments() == null || body.arguments().isNull() ? null : body.arguments();
        var decision = new ApprovalDecision(approve, arguments, body.comment());
        String requestId = RequestIds.of(request, response);
        return respond(
                request,
                response,
                caller,
                ApiRequests.wantsSse(request),
                false,
                listener ->
                        baton.approvals().decide(caller, id, callId, decision, SendOptions.of(requestId), listener));
    }

    private static SendOptions options(HttpServletRequest request, HttpServletResponse response, String raw) {
        String requestId = RequestIds.of(request, response);
        String key = request.getHeader("Idempotency-Key");
        return key == null ? SendOptions.of(requestId) : new SendOptions(requestId, new IdempotencyKey(key, raw));
    }

    /** Runs the turn and answers it as one JSON document, or as a stream once the turn is admitted. */
    private ResponseEntity<?> respond(
            HttpServletRequest request,
            HttpServletResponse response,
            Principal caller,
            boolean sse,
            boolean chatShape,
            Function<TurnListener, Object> run) {
        TurnEventRecorder recorder = new TurnEventRecorder(baton.turnEvents(), caller);
        if (sse) {
            TurnStream stream = new TurnStream(
                    recorder, heartbeats, streamTimeout, !"true".equalsIgnoreCase(request.getHeader(RESUMABLE)));
            TurnStream.Start start = stream.start(run, RequestIds.of(request, response));
            if (start instanceof TurnStream.Start.Streaming streaming) {
                streaming.turn().rate().quotaFields().forEach(response::setHeader);
                response.setHeader("Cache-Control", "no-cache");
                response.setHeader("X-Accel-Buffering", "no");
                return ResponseEntity.ok()
                        .contentType(MediaType.TEXT_EVENT_STREAM)
                        .body(stream.emitter());
            }
            return answer(((TurnStream.Start.Ended) start).result(), chatShape, request, response);
        }
        Object result = run.apply(new TurnListener() {
            @Override
            public void admitted(AdmittedTurn turn) {
                turn.rate().quotaFields().forEach(response::setHeader);
            }

            @Override
            public void onEvent(TurnEvent event) {
                recorder.record(event);
            }
        });
        return answer(result, chatShape, request, response);
    }

    private static ResponseEntity<String> answer(
            Object result, boolean chatShape, HttpServletRequest request, HttpServletResponse response) {
        return switch (result) {
            case ApprovalResult.Resumed resumed -> answer(resumed.ran(), chatShape, request, response);
            case ApprovalResult.Recorded recorded -> ApiRequests.json(202, TurnAnswers.recorded(recorded));
            case SendResult.Replayed replayed -> {
                // answered as JSON whatever was asked for: a stream cannot be sent again
                response.setHeader("Idempotent-Replayed", "true");
                TurnOutcome o = replayed.outcome();
                yield ApiRequests.json(
                        200, chatShape ? TurnAnswers.chat(o.userMessage().sessionId(), o) : TurnAnswers.message(o));
            }
            case SendResult.Ran ran -> {
                if (ran.outcome().terminal() instanceof TurnEvent.Failed failed)
                    yield ErrorResponses.turnFailed(failed, request, response);
                yield ApiRequests.json(
                        200,
                        chatShape
                                ? TurnAnswers.chat(ran.session().id(), ran.outcome())
                                : TurnAnswers.message(ran.outcome()));
            }
            default ->
                throw new IllegalStateException(
                        "unexpected result " + result.getClass().getName());
        };
    }
}
