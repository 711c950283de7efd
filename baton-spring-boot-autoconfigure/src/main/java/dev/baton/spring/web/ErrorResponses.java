package dev.baton.spring.web;

import dev.baton.core.domain.DomainException;
import dev.baton.core.store.StoreUnavailableException;
import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.wire.ApiProblem;
import dev.baton.wire.ErrorStatuses;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The one place where the API's failures become statuses and {@code {"error": {code, message, requestId}}} bodies,
 * as {@code baton serve} answers them: the runtime's refusals, the domains' refusals, a failed JSON turn, a missing
 * caller, malformed bodies, an unavailable database, and anything unexpected. It advises Baton's controllers only (each a
 * {@link BatonApiEndpoint}), so the app's own error handling is untouched.
 */
@RestControllerAdvice(assignableTypes = BatonApiEndpoint.class)
public class ErrorResponses {
    private static final Logger log = LoggerFactory.getLogger(ErrorResponses.class);

    @ExceptionHandler(RefusalException.class)
    ResponseEntity<String> refused(RefusalException e, HttpServletRequest request, HttpServletResponse response) {
        Refusal refusal = e.refusal();
        HttpHeaders headers = new HttpHeaders();
        switch (refusal) {
            case Refusal.RateLimited r -> {
                r.quotaHeaders().forEach(headers::set);
                headers.set("Retry-After", Long.toString(ErrorStatuses.retryAfterSeconds(r.retryAfter())));
            }
            case Refusal.BudgetExceeded b ->
                headers.set("Retry-After", Long.toString(ErrorStatuses.retryAfterSeconds(b.retryAfter())));
            default -> {}
        }
        return body(ErrorStatuses.status(refusal), refusal.code(), refusal.message(), headers, request, response);
    }

    @ExceptionHandler(DomainException.class)
    ResponseEntity<String> domain(DomainException e, HttpServletRequest request, HttpServletResponse response) {
        return body(
                ErrorStatuses.status(e.kind()),
                ErrorStatuses.wireCode(e.kind()),
                e.getMessage(),
                new HttpHeaders(),
                request,
                response);
    }

    @ExceptionHandler(ApiProblem.class)
    ResponseEntity<String> problem(ApiProblem e, HttpServletRequest request, HttpServletResponse response) {
        return body(e.status(), e.code(), e.getMessage(), new HttpHeaders(), request, response);
    }

    @ExceptionHandler(UnauthenticatedException.class)
    ResponseEntity<String> unauthenticated(
            UnauthenticatedException e, HttpServletRequest request, HttpServletResponse response) {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        return body(401, "unauthorized", e.getMessage(), headers, request, response);
    }

    @ExceptionHandler(StoreUnavailableException.class)
    ResponseEntity<String> storeUnavailable(
            StoreUnavailableException e, HttpServletRequest request, HttpServletResponse response) {
        log.debug("database unavailable on {} {}: {}", request.getMethod(), request.getRequestURI(), e.getMessage());
        HttpHeaders headers = new HttpHeaders();
        headers.set("Retry-After", Long.toString(ErrorStatuses.retryAfterSeconds(e.retryAfter())));
        return body(
                503,
                ErrorStatuses.DATABASE_UNAVAILABLE,
                "the database is unavailable; retry shortly",
                headers,
                request,
                response);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<String> unexpected(Exception e, HttpServletRequest request, HttpServletResponse response) {
        log.error("unexpected error on {} {}", request.getMethod(), request.getRequestURI(), e);
        return body(
                500,
                "internal_error",
                "unexpected error; quote the request id when reporting it",
                new HttpHeaders(),
                request,
                response);
    }

    /** A turn that failed, for a request that wanted one JSON document (over SSE it is an error event). */
    static ResponseEntity<String> turnFailed(
            TurnEvent.Failed failed, HttpServletRequest request, HttpServletResponse response) {
        HttpHeaders headers = new HttpHeaders();
        if (failed.retryAfter() != null)
            headers.set("Retry-After", Long.toString(ErrorStatuses.retryAfterSeconds(failed.retryAfter())));
        return body(ErrorStatuses.status(failed), failed.code(), failed.message(), headers, request, response);
    }

    private static ResponseEntity<String> body(
            int status,
            String code,
            String message,
            HttpHeaders headers,
            HttpServletRequest request,
            HttpServletResponse response) {
        headers.set(ApiRequests.CONTENT_TYPE_OPTIONS, ApiRequests.NOSNIFF);
        return ResponseEntity.status(status)
                .headers(headers)
                .contentType(MediaType.APPLICATION_JSON)
                .body(ErrorStatuses.body(code, message, RequestIds.of(request, response)));
    }
}
