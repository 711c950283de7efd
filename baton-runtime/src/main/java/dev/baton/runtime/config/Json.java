package dev.baton.runtime.config;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The runtime's one JSON mapper, for the JSON it stores (session configuration) and tool results. */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}
}
