package dev.baton.runtime.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.ApprovalRules;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelResolver;
import dev.baton.core.model.TokenUsage;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolSource;
import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.Baton;
import dev.baton.runtime.OpenSessions;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.Yaml;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.runtime.conversation.TurnListener;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.testing.SettableClock;
import dev.baton.runtime.tool.AnnotatedTools;
import dev.baton.runtime.tool.BatonTool;
import dev.baton.runtime.tool.Param;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Human approval through the runtime, in one process: a destructive tool's call pauses the turn, a decision goes on
 * with it, a new message denies it, expiry ends it, and each refusal has its code.
 */
class ApprovalsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant START = Instant.parse("2026-03-01T08:00:00Z");
    private static final Principal ALICE =
            Principal.of("t1", "alice", Set.of(Sessions.READ, Sessions.WRITE, "files:write"));
    private static final Principal BOB =
            Principal.of("t1", "bob", Set.of(Sessions.READ, Sessions.WRITE, "files:write"));

    private final SettableClock clock = new SettableClock(START);
    private final InMemoryConversationStore store = new InMemoryConversationStore();
    private final List<String> removed = new CopyOnWriteArrayList<>();
    private final List<String> listed = new CopyOnWriteArrayList<>();
    private Baton baton;

    /** The tools: one destructive, one not. */
    public final class Files {
        @BatonTool(
                name = "remove_file",
                description = "Removes a file.",
                permissions = "files:write",
                destructive = true)
        public String remove(@Param(name = "path", description = "The file") String path) {
            removed.add(path);
            return "removed " + path;
        }

        @BatonTool(name = "list_files", description = "Lists the files.")
        public List<String> list() {
            listed.add("list");
            return List.of("a.txt", "b.txt");
        }
    }

    /** Asks for remove_file(path) and list_files on a user message, then says what the last tool result was. */
    static final class RemovingModel implements ModelGateway, ModelResolver {
        @Override
        public ModelReply stream(
                dev.baton.core.model.ModelRequest request, Consumer<dev.baton.core.model.ModelDelta> onDelta) {
            ChatMessage last = request.messages().getLast();
            TokenUsage usage = new TokenUsage(10, 5, 0);
            if (last instanceof ChatMessage.User user) {
                String path = user.content().replace("remove ", "");
                return new ModelReply(
                        "",
                        List.of(
                                new ToolCallRequest("c1", "remove_file", "{\"path\":\"" + path + "\"}"),
                                new ToolCallRequest("c2", "list_files", "{}")),
                        usage,
                        "m",
                        "tool_calls");
            }
            String results = request.messages().stream()
                    .filter(m -> m instanceof ChatMessage.ToolResult)
                    .map(m -> ((ChatMessage.ToolResult) m).toolName() + "=" + ((ChatMessage.ToolResult) m).content())
                    .reduce((a, b) -> a + "; " + b)
                    .orElse("");
            return new ModelReply("Results: " + results, List.of(), usage, "m", "stop");
        }

        @Override
        public String provider() {
            return "scripted";
        }

        @Override
        public ModelBinding resolve(String reference) {
            return new ModelBinding(reference, this, "m");
        }
    }

    private Baton baton(String approvalYaml) {
        AgentDefinition agent =
                AgentDefinition.of("files", "You manage files.", "scripted:m", List.of("remove_file", "list_files"));
        if (approvalYaml != null) {
            agent = agent.withApproval(
                    ApprovalRules.from(Yaml.parse("approval: " + approvalYaml).path("approval"), agent.id()));
        }
        baton = Baton.builder()
                .clock(clock)
                .conversationStore(store)
                .sessionStore(new OpenSessions(store::createSession))
                .models(new RemovingModel())
                .tokenCounter(String::length)
                .agents(AgentRegistry.of(List.of(agent)))
                .tools(summarisingRemovals(AnnotatedTools.named("files", new Files())))
                .build();
        return baton;
    }

    /** remove_file with a summary read as the caller, as a domain tool gives one; list_files has none. */
    private static ToolSource summarisingRemovals(ToolSource files) {
        List<Tool> tools = files.tools().stream()
                .map(tool -> !tool.definition().name().equals("remove_file")
                        ? tool
                        : new Tool() {
                            @Override
                            public ToolDefinition definition() {
                                return tool.definition();
                            }

                            @Override
                            public JsonNode execute(JsonNode arguments, ToolContext context) {
                                return tool.execute(arguments, context);
                            }

                            @Override
                            public Optional<String> summary(JsonNode arguments, ToolContext context) {
                                return Optional.of("Remove the file '"
                                        + arguments.path("path").asText() + "' of "
                                        + context.principal().userId());
                            }
                        })
                .toList();
        return new ToolSource() {
            @Override
            public String name() {
                return files.name();
            }

            @Override
            public List<Tool> tools() {
                return tools;
            }
        };
    }

    @AfterEach
    void close() {
        if (baton != null) baton.close();
    }

    private record Sent(SendResult.Ran ran, List<TurnEvent> events) {
        TurnEvent.AwaitingApproval paused() {
            return ran.outcome().awaitingApproval().orElseThrow();
        }

        String callId() {
            return paused().pending().getFirst().callId();
        }
    }

    private Sent send(Principal who, String session, String text) {
        List<TurnEvent> events = new ArrayList<>();
        SendResult result = baton.conversations().send(who, session, text, SendOptions.withNewRequestId(), events::add);
        return new Sent((SendResult.Ran) result, events);
    }

    private ApprovalResult decide(Principal who, String session, String callId, ApprovalDecision decision) {
        return baton.approvals()
                .decide(who, session, callId, decision, SendOptions.withNewRequestId(), TurnListener.NONE);
    }

    private static String code(Throwable e) {
        return ((RefusalException) e).refusal().code();
    }

    @Test
    void a_destructive_call_waits_for_approval_and_the_approved_turn_goes_on_to_its_answer() {
        baton(null);
        String session = baton.sessions().start(ALICE, "files", null).id();

        Sent sent = send(ALICE, session, "remove a.txt");

        assertThat(removed).isEmpty();
        assertThat(listed).hasSize(1);
        assertThat(sent.events()).last().isInstanceOf(TurnEvent.AwaitingApproval.class);
        TurnEvent.ApprovalRequired required = sent.paused().pending().getFirst();
        assertThat(required.name()).isEqualTo("remove_file");
        assertThat(required.expiresAt()).isEqualTo(START.plus(Duration.ofHours(24)));
        assertThat(required.summary()).isEqualTo("Remove the file 'a.txt' of alice");
        assertThat(baton.approvals().pending(ALICE, session))
                .singleElement()
                .extracting(ToolApproval::callId, ToolApproval::summary)
                .containsExactly(required.callId(), "Remove the file 'a.txt' of alice");

        ApprovalResult result = decide(ALICE, session, required.callId(), ApprovalDecision.approval());

        assertThat(result).isInstanceOf(ApprovalResult.Resumed.class);
        var outcome = ((ApprovalResult.Resumed) result).ran().outcome();
        assertThat(outcome.succeeded()).isTrue();
        assertThat(removed).containsExactly("a.txt");
        assertThat(outcome.answer()).contains("remove_file=\"removed a.txt\"").contains("list_files=");
        assertThat(baton.approvals().pending(ALICE, session)).isEmpty();
        assertThat(baton.approvals().sessionAudit("t1", session))
                .singleElement()
                .satisfies(a -> {
                    assertThat(a.status()).isEqualTo(ApprovalStatus.APPROVED);
                    assertThat(a.decidedBy()).isEqualTo("alice");
                    assertThat(a.decidedAt()).isEqualTo(START);
                });
        assertThatThrownBy(() -> decide(ALICE, session, required.callId(), ApprovalDecision.approval()))
                .satisfies(e -> assertThat(code(e)).isEqualTo("approval_already_decided"));
    }

    @Test
    void a_denied_call_never_runs_and_the_model_is_told_with_the_users_comment() {
        baton(null);
        String session = baton.sessions().start(ALICE, "files", null).id();
        Sent sent = send(ALICE, session, "remove a.txt");

        ApprovalResult result = decide(ALICE, session, sent.callId(), ApprovalDecision.denial("keep it"));

        assertThat(removed).isEmpty();
        String answer = ((ApprovalResult.Resumed) result).ran().outcome().answer();
        assertThat(answer).contains("approval_denied").contains("keep it");
        assertThat(store.toolCallRows(session))
                .filteredOn(r -> r.toolName().equals("remove_file"))
                .singleElement()
                .extracting(ToolCallRecord::state, ToolCallRecord::id)
                .containsExactly(ToolCallState.DENIED, sent.callId());
    }

    @Test
    void edited_arguments_are_checked_against_the_schema_and_the_call_runs_with_them() {
        baton(null);
        String session = baton.sessions().start(ALICE, "files", null).id();
        Sent sent = send(ALICE, session, "remove a.txt");

        assertThatThrownBy(() -> decide(
                        ALICE,
                        session,
                        sent.callId(),
                        new ApprovalDecision(true, JSON.valueToTree(Map.of("path", 7)), null)))
                .satisfies(e -> assertThat(code(e)).isEqualTo("invalid_arguments"));
        assertThat(baton.approvals().pending(ALICE, session)).hasSize(1);

        decide(
                ALICE,
                session,
                sent.callId(),
                new ApprovalDecision(true, JSON.valueToTree(Map.of("path", "b.txt")), null));

        assertThat(removed).containsExactly("b.txt");
        assertThat(baton.approvals().sessionAudit("t1", session).getFirst().decidedArguments())
                .isEqualTo("{\"path\":\"b.txt\"}");
    }

    @Test
    void another_users_call_is_not_found_and_a_session_waiting_on_nothing_says_so() {
        baton(null);
        String session = baton.sessions().start(ALICE, "files", null).id();
        Sent sent = send(ALICE, session, "remove a.txt");
        String bobs = baton.sessions().start(BOB, "files", null).id();

        assertThatThrownBy(() -> decide(BOB, session, sent.callId(), ApprovalDecision.approval()))
                .satisfies(e -> assertThat(((RefusalException) e).refusal()).isInstanceOf(Refusal.NotFound.class));
        assertThatThrownBy(() -> decide(BOB, bobs, sent.callId(), ApprovalDecision.approval()))
                .satisfies(e -> assertThat(code(e)).isEqualTo("no_pending_approval"));
        assertThatThrownBy(() -> decide(ALICE, session, "no-such-call", ApprovalDecision.approval()))
                .satisfies(e -> assertThat(((RefusalException) e).refusal()).isInstanceOf(Refusal.NotFound.class));
        assertThat(removed).isEmpty();
    }

    @Test
    void a_new_message_denies_the_waiting_call_and_ends_the_paused_turn_before_its_own() {
        baton(null);
        String session = baton.sessions().start(ALICE, "files", null).id();
        Sent first = send(ALICE, session, "remove a.txt");

        Sent second = send(ALICE, session, "remove b.txt");

        assertThat(removed).isEmpty();
        assertThat(second.ran().outcome().awaitingApproval()).isPresent();
        assertThat(baton.approvals().sessionAudit("t1", session))
                .extracting(ToolApproval::status)
                .containsExactly(ApprovalStatus.SUPERSEDED, ApprovalStatus.PENDING);
        assertThat(store.listMessages("alice", session, null, 10))
                .extracting(Message::status)
                .containsExactly(MessageStatus.COMPLETE, MessageStatus.CANCELLED, MessageStatus.COMPLETE);
        assertThatThrownBy(() -> decide(ALICE, session, first.callId(), ApprovalDecision.approval()))
                .satisfies(e -> assertThat(code(e)).isEqualTo("approval_superseded"));
    }

    @Test
    void an_undecided_call_expires_once_the_clock_passes_its_expiry_and_the_turn_ends_without_it() {
        baton(null);
        String session = baton.sessions().start(ALICE, "files", null).id();
        Sent sent = send(ALICE, session, "remove a.txt");

        clock.advance(Duration.ofHours(23));
        assertThat(baton.approvals().expire()).isZero();
        clock.advance(Duration.ofHours(1));
        assertThat(baton.approvals().expire()).isEqualTo(1);

        assertThat(baton.approvals().sessionAudit("t1", session))
                .singleElement()
                .extracting(ToolApproval::status)
                .isEqualTo(ApprovalStatus.EXPIRED);
        assertThat(store.listMessages("alice", session, null, 10))
                .extracting(Message::status)
                .containsExactly(MessageStatus.COMPLETE, MessageStatus.CANCELLED);
        assertThatThrownBy(() -> decide(ALICE, session, sent.callId(), ApprovalDecision.approval()))
                .satisfies(e -> assertThat(code(e)).isEqualTo("approval_expired"));
        assertThat(removed).isEmpty();
    }

    @Test
    void a_call_decided_after_its_expiry_but_before_the_sweep_is_refused_as_expired() {
        baton(null);
        String session = baton.sessions().start(ALICE, "files", null).id();
        Sent sent = send(ALICE, session, "remove a.txt");
        clock.advance(Duration.ofHours(25));

        assertThatThrownBy(() -> decide(ALICE, session, sent.callId(), ApprovalDecision.approval()))
                .satisfies(e -> assertThat(code(e)).isEqualTo("approval_expired"));
        assertThat(baton.approvals().expire()).isZero();
        assertThat(removed).isEmpty();
    }

    @Test
    void the_agents_policy_decides_per_tool() {
        baton("{default: never, tools: {list_files: always}}");
        String session = baton.sessions().start(ALICE, "files", null).id();

        Sent sent = send(ALICE, session, "remove a.txt");

        assertThat(removed).containsExactly("a.txt");
        assertThat(listed).isEmpty();
        assertThat(sent.paused().pending())
                .extracting(TurnEvent.ApprovalRequired::name, TurnEvent.ApprovalRequired::summary)
                .as("a tool without a summary: none, shown as its name and arguments")
                .containsExactly(org.assertj.core.groups.Tuple.tuple("list_files", null));
        assertThat(baton.approvals().pending(ALICE, session))
                .extracting(ToolApproval::summary)
                .containsOnlyNulls()
                .hasSize(1);
    }
}
