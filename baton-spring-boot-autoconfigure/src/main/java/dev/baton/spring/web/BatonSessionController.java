package dev.baton.spring.web;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.SessionPage;
import dev.baton.core.conversation.SessionQuery;
import dev.baton.core.conversation.SessionState;
import dev.baton.runtime.Baton;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.approval.ToolApproval;
import dev.baton.runtime.session.Sessions;
import dev.baton.wire.Views;
import dev.baton.wire.WireJson;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Baton's session endpoints except sending a message ({@link BatonApiController}): start, list, read, read the
 * messages of, complete, cancel the running turn of, and delete a session — {@link Sessions} calls, answered as
 * {@code baton serve}'s {@code SessionRoutes} answers them.
 */
@RestController
@RequestMapping("${baton.api.base-path:}/v1/sessions")
public class BatonSessionController implements BatonApiEndpoint {
    private final Baton baton;
    private final ApiRequests requests;

    public BatonSessionController(Baton baton, CallerResolver callers, int maxBodyBytes) {
        this.baton = baton;
        this.requests = new ApiRequests(callers, maxBodyBytes);
    }

    record CreateSession(String agentId, String assignmentId) {}

    @PostMapping
    public ResponseEntity<String> create(HttpServletRequest request, HttpServletResponse response) {
        Principal caller = requests.caller(request, response, Sessions.WRITE);
        CreateSession body = ApiRequests.bind(requests.body(request), CreateSession.class);
        return ApiRequests.json(
                201, Views.session(baton.sessions().start(caller, body.agentId(), body.assignmentId())));
    }

    /** {@code ?agentId=&state=active|completed&limit=1..100&cursor=}: the caller's sessions, newest first. */
    @GetMapping
    public ResponseEntity<String> list(HttpServletRequest request, HttpServletResponse response) {
        Principal caller = requests.caller(request, response, Sessions.READ);
        SessionState state = stateParam(request);
        int limit = ApiRequests.intParam(request, "limit", 20, 1, 100);
        SessionPage page = baton.sessions()
                .list(
                        caller,
                        new SessionQuery(
                                request.getParameter("agentId"), state, limit, request.getParameter("cursor")));
        ObjectNode out = WireJson.MAPPER.createObjectNode();
        ArrayNode sessions = out.putArray("sessions");
        page.sessions().forEach(s -> sessions.add(Views.session(s)));
        out.put("nextCursor", page.nextCursor());
        return ApiRequests.json(200, out);
    }

    /** The session, with {@code awaitingApproval}, the {@code pendingApprovals} and {@code lastTurnId}. */
    @GetMapping("/{id}")
    public ResponseEntity<String> get(
            @PathVariable String id, HttpServletRequest request, HttpServletResponse response) {
        Principal caller = requests.caller(request, response);
        ObjectNode view = Views.session(baton.sessions().get(caller, id));
        var pending = baton.approvals().pending(caller, id);
        view.put("awaitingApproval", !pending.isEmpty());
        ArrayNode calls = view.putArray("pendingApprovals");
        for (ToolApproval a : pending) calls.add(Views.approval(a));
        baton.turnEvents().lastTurn(id).ifPresent(turn -> view.put("lastTurnId", turn));
        return ApiRequests.json(200, view);
    }

    @GetMapping("/{id}/messages")
    public ResponseEntity<String> messages(
            @PathVariable String id, HttpServletRequest request, HttpServletResponse response) {
        Principal caller = requests.caller(request, response, Sessions.READ);
        int limit = ApiRequests.intParam(request, "limit", 50, 1, 200);
        String before = request.getParameter("before");
        Long beforeSeq;
        try {
            beforeSeq = before == null ? null : Long.parseLong(before);
        } catch (NumberFormatException e) {
            throw RefusalException.invalidInput("before must be a message seq number");
        }
        return ApiRequests.json(200, Views.messages(baton.sessions().messages(caller, id, beforeSeq, limit)));
    }

    @PostMapping("/{id}/complete")
    public ResponseEntity<String> complete(
            @PathVariable String id, HttpServletRequest request, HttpServletResponse response) {
        Principal caller = requests.caller(request, response);
        return ApiRequests.json(200, Views.completed(baton.sessions().complete(caller, id)));
    }

    /** Stops the session's running turn (its partial answer is kept): {@code {cancelled: true|false}}. */
    @PostMapping("/{id}/cancel")
    public ResponseEntity<String> cancel(
            @PathVariable String id, HttpServletRequest request, HttpServletResponse response) {
        Principal caller = requests.caller(request, response);
        return ApiRequests.json(
                200,
                WireJson.MAPPER
                        .createObjectNode()
                        .put("cancelled", baton.sessions().cancel(caller, id)));
    }

    @DeleteMapping("/{id}")
    public ResponseEntity<Void> delete(
            @PathVariable String id, HttpServletRequest request, HttpServletResponse response) {
        Principal caller = requests.caller(request, response);
        baton.sessions().delete(caller, id);
        return ResponseEntity.noContent().build();
    }

    /** The {@code state} query parameter: null when absent, 400 when it is neither active nor completed. */
    private static SessionState stateParam(HttpServletRequest request) {
        String state = request.getParameter("state");
        try {
            return state == null ? null : SessionState.fromWire(state);
        } catch (IllegalArgumentException e) {
            throw RefusalException.invalidInput("state must be 'active' or 'completed'");
        }
    }
}
