package dev.baton.server.http;

import dev.baton.wire.RequestIdHeader;

/** X-Request-ID: echoed when the client sent a sane one, generated otherwise ({@link RequestIdHeader}). */
public final class RequestIds {
    public static final String HEADER = RequestIdHeader.NAME;
    public static final String ATTRIBUTE = "baton.requestId";

    private RequestIds() {}

    public static String accept(String fromClient) {
        return RequestIdHeader.accept(fromClient);
    }
}
