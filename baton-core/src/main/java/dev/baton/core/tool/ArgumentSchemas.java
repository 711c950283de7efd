package dev.baton.core.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Validates tool arguments against the tool's JSON Schema (draft 2020-12 unless the schema names another
 * dialect). Compiled schemas are cached per schema tree and per schema text; tool catalogues are small, so the cache is simply
 * emptied if it ever grows past a bound (tools of MCP servers that keep changing).
 */
final class ArgumentSchemas {
    private static final int MAX_CACHED = 1024;
    private static final int MAX_MESSAGES = 5;

    // the validator works on Jackson 3 trees; passing JSON text keeps the core's Jackson 2 types off its API
    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_2020_12,
            // a schema from an MCP server must not make us fetch URLs it names in $ref
            builder -> builder.schemaLoader(loader -> loader.fetchRemoteResources(false)));
    private final Map<String, Schema> compiled = new ConcurrentHashMap<>();
    /**
     * The same compiled schemas by the tree they came from (by identity): a tool's schema is one tree for as long as
     * its catalogue stands, so a call finds it without writing the schema out as text first.
     */
    private final Cache<JsonNode, Schema> byTree =
            Caffeine.newBuilder().weakKeys().maximumSize(MAX_CACHED).build();

    /**
     * @return the validator's messages, empty when the arguments are valid
     * @throws RuntimeException when the schema itself cannot be compiled (the tool is misconfigured)
     */
    List<String> validate(JsonNode schema, JsonNode arguments) {
        List<Error> errors = schemaFor(schema).validate(arguments.toString(), InputFormat.JSON);
        return errors.stream()
                .limit(MAX_MESSAGES)
                .map(ArgumentSchemas::describe)
                .toList();
    }

    /** "/title: integer found, string expected"; problems with the whole object carry no location. */
    private static String describe(Error error) {
        String location = error.getInstanceLocation() == null
                ? ""
                : error.getInstanceLocation().toString();
        return location.isEmpty() || location.equals("$") || location.equals("/")
                ? error.getMessage()
                : location + ": " + error.getMessage();
    }

    private Schema schemaFor(JsonNode schema) {
        Schema known = byTree.getIfPresent(schema);
        if (known != null) {
            return known;
        }
        // a tree not seen before (a catalogue refreshed from its MCP server) may still hold a schema compiled already
        String text = schema.toString();
        if (compiled.size() >= MAX_CACHED) {
            compiled.clear();
        }
        Schema schemaOfText = compiled.computeIfAbsent(text, t -> registry.getSchema(t, InputFormat.JSON));
        byTree.put(schema, schemaOfText);
        return schemaOfText;
    }
}
