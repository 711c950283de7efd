package dev.baton.server.http;

import dev.baton.core.id.Ids;
import java.util.regex.Pattern;

/** X-Request-ID: echoed when the client sent a sane one, generated otherwise. */
public final class RequestIds {
    public static final String HEADER = "X-Request-ID";
    public static final String ATTRIBUTE = "baton.requestId";
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._:\\-]{1,128}");

    private RequestIds() {}

    public static String accept(String fromClient) {
        return fromClient != null && SAFE.matcher(fromClient).matches() ? fromClient : Ids.newId();
    }
}
