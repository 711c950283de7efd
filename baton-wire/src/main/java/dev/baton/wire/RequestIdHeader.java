package dev.baton.wire;

import dev.baton.core.id.Ids;
import java.util.regex.Pattern;

/** {@code X-Request-ID}: the client's, echoed when it is a sane one (1–128 of {@code [A-Za-z0-9._:-]}), else a new id. */
public final class RequestIdHeader {
    public static final String NAME = "X-Request-ID";
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._:\\-]{1,128}");

    private RequestIdHeader() {}

    /** The request's id: {@code fromClient} when it is safe to echo, else a new one. */
    public static String accept(String fromClient) {
        return fromClient != null && SAFE.matcher(fromClient).matches() ? fromClient : Ids.newId();
    }
}
