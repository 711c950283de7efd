package dev.baton.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.wire.RequestBodies;
import java.io.IOException;
import java.io.InputStream;

/**
 * The API's input rules ({@link RequestBodies}: size, UTF-8, no NUL, one strict JSON object) on a Javalin request.
 */
public final class RequestBody {

    private RequestBody() {}

    public static String readUtf8(InputStream in, long declaredLength, int maxBytes) {
        return RequestBodies.readUtf8(in, declaredLength, maxBytes);
    }

    /** Reads and parses the request's JSON object body under the input rules. */
    public static JsonNode jsonObject(io.javalin.http.Context ctx, int maxBytes) {
        try {
            return parseObject(readUtf8(ctx.req().getInputStream(), ctx.req().getContentLengthLong(), maxBytes));
        } catch (IOException e) {
            throw ApiException.badRequest("could not read the request body");
        }
    }

    /** Parses a JSON object body; an empty body is an error. */
    public static JsonNode parseObject(String text) {
        return RequestBodies.parseObject(text);
    }

    /** Binds a JSON object to a record; unknown fields and wrong types are 400s naming the field. */
    public static <T> T bind(JsonNode node, Class<T> type) {
        return RequestBodies.bind(node, type);
    }

    /** Reads and drops what is left of a request body before the server answers without it (see RequestBodies). */
    public static void discardUnread(InputStream in) {
        RequestBodies.discardUnread(in);
    }
}
