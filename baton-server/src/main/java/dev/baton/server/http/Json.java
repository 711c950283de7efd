package dev.baton.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.wire.WireJson;

/**
 * The server's one JSON mapper: the HTTP API's ({@link WireJson}), strict on input (duplicate keys, trailing tokens,
 * unknown fields, no number or boolean where a string belongs), ISO dates on output.
 */
public final class Json {
    public static final ObjectMapper MAPPER = WireJson.MAPPER;

    private Json() {}
}
