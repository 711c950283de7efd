package dev.baton.spring.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.session.Sessions;
import dev.baton.wire.ApiProblem;
import dev.baton.wire.RequestBodies;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * What every endpoint of Baton's API does with a request, as {@code baton serve} does it: the request id (echoed or
 * made, on every answer), the caller and the permission the endpoint needs, the body under the input rules, query
 * numbers in range, and a JSON answer written as Baton's own tree.
 */
final class ApiRequests {
    /** The header that keeps a browser from sniffing a body's type, and its one value. */
    static final String CONTENT_TYPE_OPTIONS = "X-Content-Type-Options";

    static final String NOSNIFF = "nosniff";

    private final CallerResolver callers;
    private final int maxBodyBytes;

    ApiRequests(CallerResolver callers, int maxBodyBytes) {
        this.callers = callers;
        this.maxBodyBytes = maxBodyBytes;
    }

    /**
     * The request id (kept on the request, set on the response) and the authenticated caller. Every answer, a refusal
     * as much as a success, says {@code nosniff}, so a browser never takes a JSON or event-stream body for a page.
     */
    Principal caller(HttpServletRequest request, HttpServletResponse response) {
        RequestIds.of(request, response);
        response.setHeader(CONTENT_TYPE_OPTIONS, NOSNIFF);
        return callers.caller(request);
    }

    /** The caller, who must hold {@code permission} (403 otherwise). */
    Principal caller(HttpServletRequest request, HttpServletResponse response, String permission) {
        Principal caller = caller(request, response);
        Sessions.require(caller, permission);
        return caller;
    }

    /** The body as text, under the size and encoding rules ({@link RequestBodies}). */
    String body(HttpServletRequest request) {
        try {
            return RequestBodies.readUtf8(request.getInputStream(), request.getContentLengthLong(), maxBodyBytes);
        } catch (IOException e) {
            throw ApiProblem.badRequest("could not read the request body");
        }
    }

    /** A JSON object body bound to a record, under the strict JSON rules; an empty body is an error. */
    static <T> T bind(String body, Class<T> type) {
        return RequestBodies.bind(RequestBodies.parseObject(body), type);
    }

    static boolean wantsSse(HttpServletRequest request) {
        String accept = request.getHeader("Accept");
        return accept != null && accept.contains("text/event-stream");
    }

    static ResponseEntity<String> json(int status, JsonNode body) {
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_JSON)
                .body(body.toString());
    }

    /** A whole-number query parameter from {@code min} to {@code max}; {@code fallback} when absent, 400 otherwise. */
    static int intParam(HttpServletRequest request, String name, int fallback, int min, int max) {
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
