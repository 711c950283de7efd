package dev.baton.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/** What the model is told about a tool: name, description and JSON Schema of its parameters. */
public record ToolSpec(String name, String description, JsonNode parametersSchema) {
    public ToolSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parametersSchema, "parametersSchema");
    }
}
