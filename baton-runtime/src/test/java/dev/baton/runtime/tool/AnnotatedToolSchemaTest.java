package dev.baton.runtime.tool;

import static dev.baton.runtime.tool.ToolCalls.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AnnotatedToolSchemaTest {

    /** Any annotation named Nullable makes an argument optional, whichever library it comes from. */
    @Retention(RetentionPolicy.RUNTIME)
    @interface Nullable {}

    enum Priority {
        LOW,
        NORMAL,
        @JsonProperty("urgent")
        HIGH
    }

    record Reminder(
            @Param(description = "What to remind of") String text,
            @JsonPropertyDescription("The day it is due") LocalDate due,
            Optional<Priority> priority,
            int repeat) {}

    record Pair(Reminder first, Reminder second) {}

    static final class Fixtures {
        @BatonTool(description = "Counts things")
        public void primitives(int count, long total, double ratio, boolean exact) {}

        @BatonTool(description = "Says something")
        public void strings(
                @Param(description = "The title, at most 200 characters") String title,
                @JsonPropertyDescription("Free text") String body) {}

        @BatonTool(description = "Sets a priority")
        public void enums(Priority priority) {}

        @BatonTool(description = "Adds a reminder")
        public void records(@Param(description = "The reminder to add") Reminder reminder) {}

        @BatonTool(description = "Tags things")
        public void lists(List<String> tags, Set<Priority> priorities, int[] counts) {}

        @BatonTool(description = "Searches")
        public void optionals(
                String query,
                Optional<String> sort,
                @Param(required = false) Integer limit,
                @Nullable LocalDate before) {}

        @BatonTool(description = "Acts for the caller")
        public void injected(ToolContext context, String text, Principal caller) {}

        @BatonTool(description = "Takes nothing")
        public void nothing() {}

        @BatonTool(description = "Pairs reminders")
        public void shared(Pair pair) {}

        @BatonTool(
                name = "delete-everything",
                description = "Deletes every note",
                permissions = {"notes:write:self", "notes:delete:self"},
                destructive = true,
                idempotent = true,
                timeout = "30s")
        public void deleteAll() {}
    }

    private final AnnotatedTools tools = AnnotatedTools.from(new Fixtures());

    private AnnotatedTool tool(String name) {
        return tools.annotatedTools().stream()
                .filter(t -> t.definition().name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private JsonNode schema(String tool) {
        return tool(tool).definition().parametersSchema();
    }

    @Test
    void primitives_are_typed_and_required() {
        assertThat(schema("primitives")).isEqualTo(json("""
                {"type":"object",
                 "properties":{"count":{"type":"integer"},"total":{"type":"integer"},
                               "ratio":{"type":"number"},"exact":{"type":"boolean"}},
                 "required":["count","total","ratio","exact"],
                 "additionalProperties":false}"""));
    }

    @Test
    void strings_carry_the_descriptions_of_param_or_jackson() {
        assertThat(schema("strings")).isEqualTo(json("""
                {"type":"object",
                 "properties":{"title":{"type":"string","description":"The title, at most 200 characters"},
                               "body":{"type":"string","description":"Free text"}},
                 "required":["title","body"],
                 "additionalProperties":false}"""));
    }

    @Test
    void an_enum_becomes_an_enum_of_the_names_jackson_reads() {
        assertThat(schema("enums").at("/properties/priority"))
                .isEqualTo(json("{\"type\":\"string\",\"enum\":[\"LOW\",\"NORMAL\",\"urgent\"]}"));
    }

    @Test
    void a_record_becomes_a_closed_nested_object_whose_optional_components_are_not_required() {
        assertThat(schema("records").at("/properties/reminder")).isEqualTo(json("""
                {"type":"object",
                 "description":"The reminder to add",
                 "properties":{"text":{"type":"string","description":"What to remind of"},
                               "due":{"type":"string","format":"date","description":"The day it is due"},
                               "priority":{"type":"string","enum":["LOW","NORMAL","urgent"]},
                               "repeat":{"type":"integer"}},
                 "required":["text","due","repeat"],
                 "additionalProperties":false}"""));
    }

    @Test
    void lists_sets_and_arrays_become_arrays_of_their_items() {
        assertThat(schema("lists").get("properties")).isEqualTo(json("""
                {"tags":{"type":"array","items":{"type":"string"}},
                 "priorities":{"type":"array","items":{"type":"string","enum":["LOW","NORMAL","urgent"]}},
                 "counts":{"type":"array","items":{"type":"integer"}}}"""));
    }

    @Test
    void optional_nullable_and_not_required_parameters_may_be_left_out() {
        JsonNode schema = schema("optionals");

        assertThat(schema.get("required")).isEqualTo(json("[\"query\"]"));
        assertThat(schema.at("/properties/sort")).isEqualTo(json("{\"type\":\"string\"}"));
        assertThat(schema.at("/properties/limit")).isEqualTo(json("{\"type\":\"integer\"}"));
        assertThat(schema.at("/properties/before")).isEqualTo(json("{\"type\":\"string\",\"format\":\"date\"}"));
    }

    @Test
    void the_context_and_the_caller_are_left_out_of_the_schema() {
        assertThat(schema("injected")).isEqualTo(json("""
                {"type":"object","properties":{"text":{"type":"string"}},"required":["text"],
                 "additionalProperties":false}"""));
    }

    @Test
    void a_method_without_arguments_takes_an_empty_closed_object() {
        assertThat(schema("nothing"))
                .isEqualTo(json("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}"));
    }

    @Test
    void a_record_used_twice_is_defined_once_and_referenced() {
        JsonNode schema = schema("shared");

        assertThat(schema.at("/properties/pair/properties/first")).isEqualTo(json("{\"$ref\":\"#/$defs/Reminder\"}"));
        assertThat(schema.at("/properties/pair/properties/second")).isEqualTo(json("{\"$ref\":\"#/$defs/Reminder\"}"));
        assertThat(schema.at("/$defs/Reminder/additionalProperties").booleanValue())
                .isFalse();
    }

    @Test
    void name_permissions_timeout_destructive_and_idempotent_come_from_the_annotation() {
        AnnotatedTool tool = tool("delete-everything");
        ToolDefinition definition = tool.definition();

        assertThat(definition.description()).isEqualTo("Deletes every note");
        assertThat(definition.requiredPermissions()).containsExactlyInAnyOrder("notes:write:self", "notes:delete:self");
        assertThat(definition.timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(tool.destructive()).isTrue();
        assertThat(definition.destructive()).isTrue();
        assertThat(definition.idempotent()).isTrue();
    }

    @Test
    void by_default_a_tool_is_named_after_its_method_uses_the_agents_timeout_and_is_not_destructive() {
        AnnotatedTool tool = tool("nothing");

        assertThat(tool.definition().timeout()).isNull();
        assertThat(tool.definition().requiredPermissions()).isEmpty();
        assertThat(tool.destructive()).isFalse();
        assertThat(tool.definition().destructive()).isFalse();
        assertThat(tool.definition().idempotent()).isFalse();
    }

    @Test
    void the_source_offers_every_annotated_method_under_its_name() {
        assertThat(tools.name()).isEqualTo("annotated");
        assertThat(tools.tools())
                .map(Tool::definition)
                .map(ToolDefinition::name)
                .hasSize(10);
        assertThat(AnnotatedTools.named("notes", new Fixtures()).name()).isEqualTo("notes");
    }
}
