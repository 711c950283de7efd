package dev.baton.runtime.approval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.SessionState;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolSource;
import dev.baton.runtime.agent.AgentRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the question that asks for a yes or no reads. */
class ConfirmationQuestionsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Principal ALICE = Principal.of("t1", "alice", Set.of());
    private static final Session SESSION = new Session(
            "s1", "t1", "alice", "files", null, SessionState.ACTIVE, Instant.EPOCH, null, Instant.EPOCH, 0, 0, null);

    /** A tool that names the file it would remove, as the caller; another that has no summary. */
    private static final Tool REMOVE = tool(
            "remove_file",
            (args, ctx) -> Optional.of("Remove " + args.path("path").asText() + " of "
                    + ctx.principal().userId()));

    private static final Tool WIPE = tool("wipe_disk", (args, ctx) -> Optional.empty());
    private static final Tool BROKEN = tool("broken", (args, ctx) -> {
        throw new IllegalStateException("no database");
    });

    private final ConfirmationQuestions questions = new ConfirmationQuestions(
            new ToolCatalog(List.of(new Source(List.of(REMOVE, WIPE, BROKEN)))),
            AgentRegistry.of(List.of(AgentDefinition.of(
                    "files", "You manage files.", "default", List.of("remove_file", "wipe_disk", "broken")))),
            Clock.systemUTC());

    @Test
    void one_call_is_asked_in_the_tools_own_words() {
        assertThat(questions.ask(ALICE, SESSION, List.of(call("remove_file", "{\"path\":\"a.txt\"}"))))
                .isEqualTo("Remove a.txt of alice? Reply yes or no.");
    }

    @Test
    void the_summary_kept_when_the_call_was_held_is_used_without_asking_the_tool_again() {
        ConfirmationQuestions.Call kept = new ConfirmationQuestions.Call(
                "broken", JSON.createObjectNode(), "Delete the task 'buy milk' (due 2026-12-01)");

        assertThat(questions.ask(ALICE, SESSION, List.of(kept)))
                .as("broken's summary would fail now: the kept one is what the user reads")
                .isEqualTo("Delete the task 'buy milk' (due 2026-12-01)? Reply yes or no.");
    }

    @Test
    void a_tool_without_a_summary_or_whose_summary_fails_is_named_with_its_arguments() {
        assertThat(questions.ask(ALICE, SESSION, List.of(call("wipe_disk", "{\"disk\":\"c\"}"))))
                .isEqualTo("Run wipe_disk with {\"disk\":\"c\"}? Reply yes or no.");
        assertThat(questions.ask(ALICE, SESSION, List.of(call("broken", "{}"))))
                .isEqualTo("Run broken with {}? Reply yes or no.");
    }

    @Test
    void a_tool_the_agent_may_not_use_is_not_asked_for_a_summary() {
        assertThat(questions.ask(ALICE, SESSION, List.of(call("unknown_tool", "{\"x\":1}"))))
                .isEqualTo("Run unknown_tool with {\"x\":1}? Reply yes or no.");
    }

    @Test
    void several_calls_are_listed_and_one_answer_decides_all() {
        assertThat(questions.ask(
                        ALICE,
                        SESSION,
                        List.of(call("remove_file", "{\"path\":\"a.txt\"}"), call("wipe_disk", "{\"disk\":\"c\"}"))))
                .isEqualTo("Before I go on, please confirm all of these:\n- Remove a.txt of alice\n"
                        + "- Run wipe_disk with {\"disk\":\"c\"}\nReply yes to do all of them, or no.");
    }

    @Test
    void long_arguments_are_cut() {
        String big = "{\"text\":\"" + "x".repeat(1000) + "\"}";
        String question = questions.ask(ALICE, SESSION, List.of(call("wipe_disk", big)));
        assertThat(question)
                .hasSizeLessThan(ConfirmationQuestions.MAX_ARGUMENTS_SHOWN + 40)
                .contains("…");
    }

    private static ConfirmationQuestions.Call call(String tool, String arguments) {
        return new ConfirmationQuestions.Call(tool, ConfirmationQuestions.parse(arguments));
    }

    @FunctionalInterface
    interface Summary {
        Optional<String> of(JsonNode arguments, ToolContext context);
    }

    private static Tool tool(String name, Summary summary) {
        ToolDefinition definition = new ToolDefinition(
                name, "A tool.", JSON.createObjectNode().put("type", "object"), Set.of(), null, true);
        return new Tool() {
            @Override
            public ToolDefinition definition() {
                return definition;
            }

            @Override
            public JsonNode execute(JsonNode arguments, ToolContext context) {
                throw new AssertionError("a question never runs the tool");
            }

            @Override
            public Optional<String> summary(JsonNode arguments, ToolContext context) {
                return summary.of(arguments, context);
            }
        };
    }

    private record Source(List<Tool> tools) implements ToolSource {
        @Override
        public String name() {
            return "files";
        }
    }
}
