package dev.baton.spring.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.Baton;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.admission.IdempotencyKey;
import dev.baton.runtime.approval.ApprovalDecision;
import dev.baton.runtime.approval.ApprovalResult;
import dev.baton.runtime.approval.ToolApproval;
import dev.baton.runtime.conversation.AdmittedTurn;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.runtime.conversation.TurnListener;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.stream.TurnEventRecorder;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.function.Function;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The core of Baton's HTTP API v1, served by the app under {@code baton.api.base-path}: starting a session, reading
 * it and its messages, sending a message (one JSON document, or Server-Sent Events with {@code Accept:
 * text/event-stream}), and deciding on a tool call held for approval. Statuses, headers and bodies are {@code baton
 * serve}'s (see api.md); every rule — input, idempotency, limits, budgets, session state, one turn per session,
 * deadlines, approvals — is the runtime's.
 */
@RestController
@RequestMapping("${baton.api.base-path:}/v1/sessions")
public class BatonApiController {
    /** The header that asks for a stream the turn outlives: a dropped connection does not cancel it. */
    public static final String RESUMABLE = "Baton-Resumable";

    private final Baton baton;
    private final CallerResolver callers;
    private final int maxBodyBytes;
    private final Duration streamTimeout;

    public BatonApiController(Baton baton, CallerResolver callers, int maxBodyBytes, Duration streamTimeout) {
        this.baton = baton;
        this.callers = callers;
        this.maxBodyBytes = maxBodyBytes;
        this.streamTimeout = streamTimeout;
    }

    record CreateSession(String agentId, String assignmentId) {}

    record SendMessage(String content) {}

    record Decide(String decision, JsonNode arguments, String comment) {}

    @PostMapping
    public ResponseEntity<String> create(HttpServletRequest request, HttpServletResponse response) {
        RequestIds.of(request, response);
        Principal caller = caller(request, Sessions.WRITE);
        CreateSession body = ApiJson.bind(body(request), CreateSession.class);
        return json(201, Views.session(baton.sessions().start(caller, body.agentId(), body.assignmentId())));
    }

    /** The session, with {@code awaitingApproval}, the {@code pendingApprovals} and {@code lastTurnId}. */
    @GetMapping("/{id}")
    public ResponseEntity<String> get(
            @PathVariable String id, HttpServletRequest request, HttpServletResponse response) {
        RequestIds.of(request, response);
        Principal caller = callers.caller(request);
        ObjectNode view = Views.session(baton.sessions().get(caller, id));
        var pending = baton.approvals().pending(caller, id);
        view.put("awaitingApproval", !pending.isEmpty());
        ArrayNode calls = view.putArray("pendingApprovals");
        for (ToolApproval a : pending) calls.add(Views.approval(a));
        baton.turnEvents().lastTurn(id).ifPresent(turn -> view.put("lastTurnId", turn));
        return json(200, view);
    }

    @GetMapping("/{id}/messages")
    public ResponseEntity<String> messages(
            @PathVariable String id, HttpServletRequest request, HttpServletResponse response) {
        RequestIds.of(request, response);
        Principal caller = caller(request, Sessions.READ);
        int limit = intParam(request, "limit", 50, 1, 200);
        String before = request.getParameter("before");
        Long beforeSeq;
        try {
            beforeSeq = before == null ? null : Long.parseLong(before);
        } catch (NumberFormatException e) {
            throw RefusalException.invalidInput("before must be a message seq number");
        }
        Sessions.MessagePage page = baton.sessions().messages(caller, id, beforeSeq, limit);
        ObjectNode out = ApiJson.MAPPER.createObjectNode();
        ArrayNode arr = out.putArray("messages");
        page.messages().forEach(m -> arr.add(Views.message(m, page.toolCallsOf(m))));
        return json(200, out);
    }

    @PostMapping("/{id}/messages")
    public ResponseEntity<?> send(@PathVariable String id, HttpServletRequest request, HttpServletResponse response) {
        String requestId = RequestIds.of(request, response);
        Principal caller = caller(request, Sessions.WRITE);
        String raw = body(request);
        SendMessage body = ApiJson.bind(raw, SendMessage.class);
        String key = request.getHeader("Idempotency-Key");
        SendOptions options =
                key == null ? SendOptions.of(requestId) : new SendOptions(requestId, new IdempotencyKey(key, raw));
        return respond(
                request,
                response,
                caller,
                listener -> baton.conversations().send(caller, id, body.content(), options, listener));
    }

    /**
     * A decision on a held tool call. The last decision a paused turn waited for goes on with it, answered like a
     * message (SSE or JSON); an earlier one is recorded and answered 202 with what still waits.
     */
    @PostMapping("/{id}/approvals/{callId}")
    public ResponseEntity<?> decide(
            @PathVariable String id,
            @PathVariable String callId,
            HttpServletRequest request,
            HttpServletResponse response) {
        String requestId = RequestIds.of(request, response);
        Principal caller = caller(request, Sessions.WRITE);
        Decide body = ApiJson.bind(body(request), Decide.class);
        boolean approve;
        if ("approve".equals(body.decision())) approve = true;
        else if ("deny".equals(body.decision())) approve = false;
        else throw new ApiProblem(400, "invalid_request", "field 'decision' must be \"approve\" or \"deny\"");
        JsonNode arguments = body.arguments() == null || body.arguments().isNull() ? null : body.arguments();
        var decision = new ApprovalDecision(approve, arguments, body.comment());
        return respond(
                request,
                response,
                caller,
                listener ->
                        baton.approvals().decide(caller, id, callId, decision, SendOptions.of(requestId), listener));
    }

    /** Runs the turn and answers it as one JSON document, or as a stream once the turn is admitted. */
    private ResponseEntity<?> respond(
            HttpServletRequest request,
            HttpServletResponse response,
            Principal caller,
            Function<TurnListener, Object> run) {
        TurnEventRecorder recorder = new TurnEventRecorder(baton.turnEvents(), caller);
        if (wantsSse(request)) {
            TurnStream stream =
                    new TurnStream(recorder, streamTimeout, !"true".equalsIgnoreCase(request.getHeader(RESUMABLE)));
            TurnStream.Start start = stream.start(run, RequestIds.of(request, response));
            if (start instanceof TurnStream.Start.Streaming streaming) {
                streaming.turn().rate().quotaFields().forEach(response::setHeader);
                response.setHeader("Cache-Control", "no-cache");
                response.setHeader("X-Accel-Buffering", "no");
                return ResponseEntity.ok()
                        .contentType(MediaType.TEXT_EVENT_STREAM)
                        .body(stream.emitter());
            }
            return answer(((TurnStream.Start.Ended) start).result(), request, response);
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
        return answer(result, request, response);
    }

    private static ResponseEntity<String> answer(
            Object result, HttpServletRequest request, HttpServletResponse response) {
        return switch (result) {
            case ApprovalResult.Resumed resumed -> answer(resumed.ran(), request, response);
            case ApprovalResult.Recorded recorded -> {
                ObjectNode n = ApiJson.MAPPER.createObjectNode().put("state", "awaiting_approval");
                n.set("decided", Views.approval(recorded.decided()));
                ArrayNode pending = n.putArray("pendingApprovals");
                recorded.stillPending().forEach(a -> pending.add(Views.approval(a)));
                yield json(202, n);
            }
            case SendResult.Replayed replayed -> {
                response.setHeader("Idempotent-Replayed", "true");
                yield json(200, Views.messageResponse(replayed.outcome()));
            }
            case SendResult.Ran ran -> {
                if (ran.outcome().terminal() instanceof TurnEvent.Failed failed)
                    yield ErrorResponses.turnFailed(failed, request, response);
                yield json(200, Views.messageResponse(ran.outcome()));
            }
            default ->
                throw new IllegalStateException(
                        "unexpected result " + result.getClass().getName());
        };
    }

    private Principal caller(HttpServletRequest request, String permission) {
        Principal caller = callers.caller(request);
        Sessions.require(caller, permission);
        return caller;
    }

    private String body(HttpServletRequest request) {
        try {
            return ApiJson.read(request.getInputStream(), request.getContentLengthLong(), maxBodyBytes);
        } catch (IOException e) {
            throw ApiProblem.badRequest("could not read the request body");
        }
    }

    private static boolean wantsSse(HttpServletRequest request) {
        String accept = request.getHeader("Accept");
        return accept != null && accept.contains("text/event-stream");
    }

    private static ResponseEntity<String> json(int status, JsonNode body) {
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_JSON)
                .body(body.toString());
    }

    private static int intParam(HttpServletRequest request, String name, int fallback, int min, int max) {
        String v = request.getParameter(name);
        if (v == null) return fallback;
        try {
            int n = Integer.parseInt(v);
            if (n < min || n > max) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw RefusalException.invalidInput(name + " must be a number from " + min + " to " + max);
        }
    }
}
