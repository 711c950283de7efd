package dev.baton.core.domain;

import static dev.baton.core.testing.TestTools.principal;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolException;
import dev.baton.core.turn.Cancellation;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DomainToolTest {
    private static final String SCHEMA = """
            {"type": "object", "properties": {"id": {"type": "string"}}, "additionalProperties": false}
            """;

    /** Throws what its argument says, as a domain service would. */
    static final class FindTool extends DomainTool {
        FindTool() {
            super("find_thing", "Find a thing.", SCHEMA, Set.of("things:read:self"));
        }

        @Override
        protected JsonNode run(JsonNode arguments, ToolContext context) {
            String id = arguments.path("id").asText();
            if (id.equals("boom")) throw new IllegalStateException("a bug, not a refusal");
            if (!id.equals("1")) throw JsonFieldsTest.ThingException.notFound(id);
            return JsonNodeFactory.instance
                    .objectNode()
                    .put("id", id)
                    .put("by", context.principal().userId());
        }
    }

    private final FindTool tool = new FindTool();
    private final ToolContext context =
            new ToolContext(principal("things:read:self"), "s-1", Instant.MAX, new Cancellation());

    @Test
    void the_definition_carries_the_parsed_schema_and_permissions() {
        assertThat(tool.definition().name()).isEqualTo("find_thing");
        assertThat(tool.definition()
                        .parametersSchema()
                        .path("additionalProperties")
                        .booleanValue())
                .isFalse();
        assertThat(tool.definition()
                        .parametersSchema()
                        .at("/properties/id/type")
                        .asText())
                .isEqualTo("string");
        assertThat(tool.definition().requiredPermissions()).containsExactly("things:read:self");
    }

    @Test
    void a_domain_refusal_reaches_the_model_with_its_code_and_message() {
        assertThat(tool.execute(args("1"), context).path("by").asText())
                .isEqualTo(context.principal().userId());
        assertThatThrownBy(() -> tool.execute(args("2"), context)).isInstanceOfSatisfying(ToolException.class, e -> {
            assertThat(e.code()).isEqualTo("not_found");
            assertThat(e.getMessage()).isEqualTo("No thing with id '2'.");
        });
    }

    @Test
    void anything_else_is_left_for_the_executor_to_report_generically() {
        assertThatThrownBy(() -> tool.execute(args("boom"), context))
                .isInstanceOf(IllegalStateException.class)
                .isNotInstanceOf(ToolException.class);
    }

    @Test
    void a_fixed_source_keeps_its_name_and_tools() {
        FixedToolSource source = new FixedToolSource("things", List.of(tool)) {};
        assertThat(source.name()).isEqualTo("things");
        assertThat(source.tools()).containsExactly(tool);
    }

    private static JsonNode args(String id) {
        return JsonNodeFactory.instance.objectNode().put("id", id);
    }
}
