package dev.baton.server.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.server.http.ApiException;
import dev.baton.server.http.RequestBody;
import io.javalin.http.Context;
import java.io.IOException;

/** A request's JSON object body under the server's input rules (size, UTF-8, NUL, JSON). */
record OpenAiBodies(int maxBodyBytes) {
    JsonNode read(Context ctx) {
        try {
            return RequestBody.parseObject(
                    RequestBody.readUtf8(ctx.req().getInputStream(), ctx.req().getContentLengthLong(), maxBodyBytes));
        } catch (IOException e) {
            throw ApiException.badRequest("could not read the request body");
        }
    }
}
