package dev.baton.spring.web;

import dev.baton.core.id.Ids;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.regex.Pattern;

/** X-Request-ID: echoed when the client sent a sane one, generated otherwise; kept on the request for error bodies. */
final class RequestIds {
    static final String HEADER = "X-Request-ID";
    private static final String ATTRIBUTE = "baton.requestId";
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._:\\-]{1,128}");

    private RequestIds() {}

    static String of(HttpServletRequest request, HttpServletResponse response) {
        Object known = request.getAttribute(ATTRIBUTE);
        if (known instanceof String id) return id;
        String fromClient = request.getHeader(HEADER);
        String id = fromClient != null && SAFE.matcher(fromClient).matches() ? fromClient : Ids.newId();
        request.setAttribute(ATTRIBUTE, id);
        if (response != null && !response.isCommitted()) response.setHeader(HEADER, id);
        return id;
    }
}
