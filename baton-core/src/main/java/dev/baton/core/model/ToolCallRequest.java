package dev.baton.core.model;

import java.util.Objects;

/** A tool call as the model asked for it. {@code argumentsJson} is the raw text and may be invalid JSON. */
public record ToolCallRequest(String id, String name, String argumentsJson) {
    public ToolCallRequest {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        argumentsJson = argumentsJson == null || argumentsJson.isBlank() ? "{}" : argumentsJson;
    }
}
