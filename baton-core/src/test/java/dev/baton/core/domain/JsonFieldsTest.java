package dev.baton.core.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JsonFieldsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Set<String> ALLOWED = Set.of("title", "tags", "note");

    /** A domain's own refusal, as TaskException and NoteException are. */
    static final class ThingException extends DomainException {
        ThingException(Kind kind, String message) {
            super(kind, message);
        }

        static ThingException malformed(String message) {
            return new ThingException(Kind.MALFORMED, message);
        }

        static ThingException notFound(String id) {
            return new ThingException(Kind.NOT_FOUND, "No thing with id '" + echoedId(id) + "'.");
        }
    }

    @Test
    void anything_but_an_object_is_refused_with_the_domains_own_exception() {
        for (String body : new String[] {"[]", "null", "\"text\"", "5"}) {
            assertThatThrownBy(() -> read(body)).as(body).isInstanceOfSatisfying(ThingException.class, e -> {
                assertThat(e.kind()).isEqualTo(DomainException.Kind.MALFORMED);
                assertThat(e.code()).isEqualTo("invalid_request");
                assertThat(e.getMessage()).isEqualTo("expected a JSON object");
            });
        }
        assertThatThrownBy(() -> JsonFields.of(null, ALLOWED, ThingException::malformed))
                .isInstanceOf(ThingException.class);
    }

    @Test
    void an_unknown_field_is_named_abbreviated_with_the_allowed_ones() {
        assertThatThrownBy(() -> read("{\"title\": \"a\", \"userId\": \"bob\"}"))
                .isInstanceOf(ThingException.class)
                .hasMessage("unknown field 'userId' (allowed: note, tags, title)");
        String longName = "x".repeat(100);
        assertThatThrownBy(() -> read("{\"" + longName + "\": 1}"))
                .hasMessageStartingWith("unknown field '" + "x".repeat(40) + "...'");
    }

    @Test
    void strings_and_string_arrays_are_checked_by_type() throws Exception {
        JsonFields fields = read("{\"title\": \"a\", \"note\": null, \"tags\": [\"x\", \"y\"]}");
        assertThat(fields.text("title")).isEqualTo("a");
        assertThat(fields.optionalText("note")).isNull();
        assertThat(fields.has("note")).isTrue();
        assertThat(fields.hasNonNull("note")).isFalse();
        assertThat(fields.texts("tags")).containsExactly("x", "y");

        assertThatThrownBy(() -> fields.text("note")).hasMessage("note must be a string");
        assertThatThrownBy(() -> read("{\"title\": 5}").optionalText("title")).hasMessage("title must be a string");
        assertThatThrownBy(() -> read("{\"tags\": [\"x\", 1]}").texts("tags"))
                .isInstanceOf(ThingException.class)
                .hasMessage("tags must be an array of strings");
        assertThatThrownBy(() -> read("{\"tags\": \"x\"}").texts("tags"))
                .hasMessage("tags must be an array of strings");
    }

    @Test
    void an_echoed_id_is_bounded() {
        assertThat(ThingException.notFound(null).getMessage()).isEqualTo("No thing with id ''.");
        assertThat(ThingException.notFound("y".repeat(1000)).getMessage())
                .isEqualTo("No thing with id '" + "y".repeat(DomainException.MAX_ECHOED_ID) + "...'.");
    }

    private static JsonFields read(String json) throws Exception {
        JsonNode body = MAPPER.readTree(json);
        return JsonFields.of(body, ALLOWED, ThingException::malformed);
    }
}
