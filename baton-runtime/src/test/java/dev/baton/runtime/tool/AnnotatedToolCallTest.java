package dev.baton.runtime.tool;

import static dev.baton.runtime.tool.ToolCalls.call;
import static dev.baton.runtime.tool.ToolCalls.json;
import static dev.baton.runtime.tool.ToolCalls.user;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.domain.DomainException;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolException;
import java.io.IOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Calls through the core's real executor, so permissions and schema validation apply as in a turn. */
class AnnotatedToolCallTest {
    private static final String WRITE = "notes:write:self";

    enum Colour {
        RED,
        GREEN
    }

    record Reminder(String text, LocalDate due, Optional<Colour> colour) {}

    record Note(String owner, String text, List<String> tags) {}

    static final class NoteException extends DomainException {
        NoteException(Kind kind, String message) {
            super(kind, message);
        }
    }

    /** A stand-in for a domain service exposed as tools; it records what it was called with. */
    static final class NoteTools {
        final List<Object> received = new CopyOnWriteArrayList<>();

        @BatonTool(description = "Adds a note for the user", permissions = WRITE)
        public Note addNote(Principal caller, String text, Optional<List<String>> tags) {
            received.add(caller);
            return new Note(caller.userId(), text, tags.orElse(List.of()));
        }

        @BatonTool(description = "Sets a reminder")
        public String remind(Reminder reminder, ToolContext context, int times) {
            received.add(reminder);
            received.add(context.sessionId());
            return "reminding " + times + " times";
        }

        @BatonTool(description = "Forgets everything")
        public void forget() {
            received.add("forgot");
        }

        @BatonTool(description = "Finds a note")
        public Optional<Note> find(String id) {
            return Optional.empty();
        }

        @BatonTool(description = "Tells the next reminder")
        public Reminder nextReminder() {
            return new Reminder("Dentist", LocalDate.of(2026, 5, 1), Optional.of(Colour.GREEN));
        }

        @BatonTool(description = "Counts notes")
        public int count(Optional<Colour> colour) {
            received.add(colour);
            return 3;
        }

        @BatonTool(description = "Refuses with a tool error")
        public void refuse() {
            throw new ToolException("confirmation_required", "Ask the user to confirm first.");
        }

        @BatonTool(description = "Refuses as the domain does")
        public void missing(String id) {
            throw new NoteException(DomainException.Kind.NOT_FOUND, "no note with id " + id);
        }

        @BatonTool(description = "Breaks")
        public void crash() {
            throw new IllegalStateException("connection to db-7.internal:5432 refused");
        }

        @BatonTool(description = "Breaks with a checked exception")
        public void crashChecked() throws IOException {
            throw new IOException("disk /var/secret is full");
        }
    }

    static class Greeter {
        @BatonTool(description = "Greets someone")
        public String greet(String name) {
            return "hello " + name;
        }
    }

    static final class LoudGreeter extends Greeter {
        @Override
        public String greet(String name) {
            return "HELLO " + name;
        }
    }

    private final NoteTools service = new NoteTools();
    private final AnnotatedTools tools = AnnotatedTools.from(service);

    @Test
    void a_valid_call_runs_the_method_and_returns_its_record_as_json() {
        ToolCallOutcome outcome =
                call(tools, user("alice", WRITE), "addNote", "{\"text\":\"Buy milk\",\"tags\":[\"home\"]}");

        assertThat(outcome.state()).isEqualTo(ToolCallState.SUCCEEDED);
        assertThat(outcome.result()).isEqualTo(json("{\"owner\":\"alice\",\"text\":\"Buy milk\",\"tags\":[\"home\"]}"));
    }

    @Test
    void the_method_sees_the_callers_principal_never_one_the_model_names() {
        Principal alice = user("alice", WRITE);

        call(tools, alice, "addNote", "{\"text\":\"Buy milk\"}");
        ToolCallOutcome smuggled = call(tools, alice, "addNote", "{\"text\":\"x\",\"caller\":{\"userId\":\"bob\"}}");

        assertThat(service.received).containsExactly(alice);
        assertThat(smuggled.state()).isEqualTo(ToolCallState.INVALID_ARGUMENTS);
    }

    @Test
    void an_argument_of_the_wrong_type_is_refused_before_the_method_runs() {
        ToolCallOutcome outcome = call(tools, user("alice", WRITE), "addNote", "{\"text\":42}");

        assertThat(outcome.state()).isEqualTo(ToolCallState.INVALID_ARGUMENTS);
        assertThat(outcome.error().message()).contains("text");
        assertThat(service.received).isEmpty();
    }

    @Test
    void an_unknown_field_in_a_nested_record_is_refused_before_the_method_runs() {
        ToolCallOutcome outcome = call(
                tools,
                user("alice"),
                "remind",
                "{\"reminder\":{\"text\":\"x\",\"due\":\"2026-05-01\",\"owner\":\"bob\"},\"times\":1}");

        assertThat(outcome.state()).isEqualTo(ToolCallState.INVALID_ARGUMENTS);
        assertThat(outcome.error().message()).contains("owner");
        assertThat(service.received).isEmpty();
    }

    @Test
    void a_caller_without_the_permission_is_refused_before_the_method_runs() {
        ToolCallOutcome outcome = call(tools, user("alice"), "addNote", "{\"text\":\"Buy milk\"}");

        assertThat(outcome.state()).isEqualTo(ToolCallState.DENIED);
        assertThat(outcome.error().code()).isEqualTo("permission_denied");
        assertThat(service.received).isEmpty();
    }

    @Test
    void records_enums_dates_and_the_context_reach_the_method_as_java_values() {
        ToolCallOutcome outcome = call(
                tools,
                user("alice"),
                "remind",
                "{\"reminder\":{\"text\":\"Dentist\",\"due\":\"2026-05-01\",\"colour\":\"RED\"},\"times\":2}");

        assertThat(outcome.state()).isEqualTo(ToolCallState.SUCCEEDED);
        assertThat(outcome.toMessage().content()).isEqualTo("\"reminding 2 times\"");
        assertThat(service.received)
                .containsExactly(
                        new Reminder("Dentist", LocalDate.of(2026, 5, 1), Optional.of(Colour.RED)), "session-1");
    }

    @Test
    void an_enum_value_outside_the_enum_is_refused_by_the_schema() {
        ToolCallOutcome outcome = call(tools, user("alice"), "count", "{\"colour\":\"BLUE\"}");

        assertThat(outcome.state()).isEqualTo(ToolCallState.INVALID_ARGUMENTS);
        assertThat(service.received).isEmpty();
    }

    @Test
    void a_left_out_optional_argument_arrives_as_empty() {
        ToolCallOutcome outcome = call(tools, user("alice"), "count", "{}");

        assertThat(outcome.result()).isEqualTo(json("3"));
        assertThat(service.received).containsExactly(Optional.empty());
    }

    @Test
    void a_void_method_answers_ok_and_an_empty_optional_answers_null() {
        assertThat(call(tools, user("alice"), "forget", "{}").result()).isEqualTo(json("{\"ok\":true}"));
        assertThat(call(tools, user("alice"), "find", "{\"id\":\"n1\"}").result())
                .isEqualTo(json("null"));
    }

    @Test
    void a_record_result_is_written_with_iso_dates_and_optionals_as_their_content() {
        assertThat(call(tools, user("alice"), "nextReminder", "{}").result())
                .isEqualTo(json("{\"text\":\"Dentist\",\"due\":\"2026-05-01\",\"colour\":\"GREEN\"}"));
    }

    @Test
    void an_override_without_the_annotation_keeps_the_tool_and_runs_the_override() {
        ToolCallOutcome outcome =
                call(AnnotatedTools.from(new LoudGreeter()), user("alice"), "greet", "{\"name\":\"Bo\"}");

        assertThat(outcome.result()).isEqualTo(json("\"HELLO Bo\""));
    }

    @Test
    void a_tool_exception_reaches_the_model_with_its_code_and_message() {
        ToolCallOutcome outcome = call(tools, user("alice"), "refuse", "{}");

        assertThat(outcome.state()).isEqualTo(ToolCallState.FAILED);
        assertThat(outcome.error().code()).isEqualTo("confirmation_required");
        assertThat(outcome.error().message()).isEqualTo("Ask the user to confirm first.");
    }

    @Test
    void a_domain_exception_reaches_the_model_with_its_wire_code_and_message() {
        ToolCallOutcome outcome = call(tools, user("alice"), "missing", "{\"id\":\"n9\"}");

        assertThat(outcome.state()).isEqualTo(ToolCallState.FAILED);
        assertThat(outcome.error().code()).isEqualTo("not_found");
        assertThat(outcome.error().message()).isEqualTo("no note with id n9");
    }

    @Test
    void any_other_exception_is_a_bare_failure_that_leaks_nothing_to_the_model() {
        List<ToolCallOutcome> outcomes = new ArrayList<>();
        outcomes.add(call(tools, user("alice"), "crash", "{}"));
        outcomes.add(call(tools, user("alice"), "crashChecked", "{}"));

        for (ToolCallOutcome outcome : outcomes) {
            assertThat(outcome.state()).isEqualTo(ToolCallState.FAILED);
            assertThat(outcome.error().code()).isEqualTo("tool_failed");
            assertThat(outcome.toMessage().content())
                    .doesNotContain("db-7", "/var/secret", "Exception", "NoteTools", "at dev.");
        }
    }

    @Test
    void a_value_the_schema_allows_but_the_java_type_cannot_hold_is_refused_without_echoing_it() {
        JsonNode arguments = json("{\"reminder\":{\"text\":\"x\",\"due\":\"2026-05-01\"},\"times\":99999999999}");

        ToolCallOutcome outcome = call(tools, user("alice"), "remind", arguments.toString());

        assertThat(outcome.state()).isEqualTo(ToolCallState.FAILED);
        assertThat(outcome.error().code()).isEqualTo("invalid_arguments");
        assertThat(outcome.error().message())
                .isEqualTo("times could not be read as int")
                .doesNotContain("9999");
        assertThat(service.received).isEmpty();
    }
}
