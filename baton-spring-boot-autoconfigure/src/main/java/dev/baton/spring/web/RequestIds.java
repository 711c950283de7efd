package dev.baton.spring.web;

import dev.baton.wire.RequestIdHeader;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * X-Request-ID: echoed when the client sent a sane one, generated otherwise ({@link RequestIdHeader}); kept on the
 * request for error bodies.
 */
final class RequestIds {
    static final String HEADER = RequestIdHeader.NAME;
    private static final String ATTRIBUTE = "baton.requestId";

    private RequestIds() {}

    static String of(HttpServletRequest request, HttpServletResponse response) {
        Object known = request.getAttribute(ATTRIBUTE);
        if (known instanceof String id) return id;
        String id = RequestIdHeader.accept(request.getHeader(HEADER));
        request.setAttribute(ATTRIBUTE, id);
        if (response != null && !response.isCommitted()) response.setHeader(HEADER, id);
        return id;
    }
}
