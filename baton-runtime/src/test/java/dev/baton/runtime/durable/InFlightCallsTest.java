package dev.baton.runtime.durable;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolSource;
import dev.baton.core.turn.TurnResume;
import dev.baton.runtime.approval.ApprovalGate;
import dev.baton.runtime.approval.ApprovalSettings;
import dev.baton.runtime.approval.ApprovalStore;
import dev.baton.runtime.approval.UnknownOutcomes;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InFlightCallsTest {
    private static final Instant NOW = Instant.parse("2026-11-29T03:00:00Z");

    private final Principal caller =
            new Principal("alice", "acme", null, null, Set.of("student"), Set.of("tasks:read"), List.of());

    private static Tool tool(String name, boolean destructive, boolean idempotent, Set<String> permissions) {
        ToolDefinition definition = new ToolDefinition(
                name,
                "Tool " + name,
                JsonNodeFactory.instance.objectNode().put("type", "object"),
                permissions,
                null,
                destructive,
                Set.of(),
                idempotent);
        return new Tool() {
            @Override
            public ToolDefinition definition() {
                return definition;
            }

            @Override
            public JsonNode execute(JsonNode arguments, ToolContext context) {
                throw new AssertionError("deciding never runs a tool");
            }
        };
    }

    private final List<Tool> tools = List.of(
            tool("lookup", false, true, Set.of("tasks:read")),
            tool("charge", false, false, Set.of()),
            tool("set_flag", true, true, Set.of()),
            tool("reset_all", false, true, Set.of("tasks:admin")));
    private final ToolSource source = new ToolSource() {
        @Override
        public String name() {
            return "test";
        }

        @Override
        public List<Tool> tools() {
            return tools;
        }
    };
    private final AgentDefinition agent = AgentDefinition.of(
            "a", "You help.", "simulator:default", List.of("lookup", "charge", "set_flag", "reset_all", "gone"));
    private final List<ToolCallRequest> running = List.of(
            new ToolCallRequest("c1", "lookup", "{}"),
            new ToolCallRequest("c2", "charge", "{}"),
            new ToolCallRequest("c3", "set_flag", "{}"),
            new ToolCallRequest("c4", "reset_all", "{}"),
            new ToolCallRequest("c5", "gone", "{}"));

    private InFlightCalls inFlight(DurableTurnSettings.UnknownOutcome unknown) {
        return new InFlightCalls(
                new ToolCatalog(List.of(source)),
                new ApprovalGate(ApprovalStore.inMemory(), ApprovalSettings.DEFAULTS, Clock.systemUTC()),
                unknown);
    }

    @Test
    void only_an_idempotent_call_the_caller_may_run_unasked_is_run_again_and_the_others_are_reported_unknown() {
        InFlightCalls inFlight = inFlight(DurableTurnSettings.UnknownOutcome.REPORT);

        List<TurnResume.ToolDecision> decisions = inFlight.decide(agent, caller, running, NOW);

        assertThat(decisions).extracting(d -> d.call().id()).containsExactly("c1", "c2", "c3", "c4", "c5");
        assertThat(decisions.getFirst()).isInstanceOf(TurnResume.ToolDecision.Approve.class);
        assertThat(decisions.subList(1, 5))
                .allSatisfy(d -> assertThat(d)
                        .as(
                                "%s: not idempotent, held for approval, not the caller's, or gone",
                                d.call().name())
                        .isInstanceOfSatisfying(TurnResume.ToolDecision.Settled.class, s -> {
                            assertThat(s.recorded()).isFalse();
                            assertThat(s.outcome().state()).isEqualTo(ToolCallState.FAILED);
                            assertThat(s.outcome().error().code()).isEqualTo("tool_outcome_unknown");
                        }));
        assertThat(decisions).extracting(TurnResume.ToolDecision::recordId).doesNotHaveDuplicates();
    }

    @Test
    void asking_runs_an_idempotent_call_again_unasked_and_asks_about_any_other_the_caller_may_still_make() {
        List<TurnResume.ToolDecision> decisions =
                inFlight(DurableTurnSettings.UnknownOutcome.ASK).decide(agent, caller, running, NOW);

        assertThat(decisions).extracting(d -> d.call().id()).containsExactly("c1", "c2", "c3", "c4", "c5");
        assertThat(decisions.get(0)).isInstanceOf(TurnResume.ToolDecision.Approve.class);
        assertThat(decisions.subList(1, 3))
                .allSatisfy(d -> assertThat(d)
                        .as(
                                "%s: not idempotent, or held by the approval policy anyway",
                                d.call().name())
                        .isInstanceOfSatisfying(
                                TurnResume.ToolDecision.Ask.class,
                                ask -> assertThat(ask.reason())
                                        .isEqualTo(UnknownOutcomes.reason(
                                                ask.call().name()))
                                        .startsWith(
                                                "The outcome of " + ask.call().name() + " is unknown")));
        assertThat(decisions.subList(3, 5))
                .allSatisfy(d -> assertThat(d)
                        .as(
                                "%s: not the caller's, or gone: nothing to ask",
                                d.call().name())
                        .isInstanceOfSatisfying(
                                TurnResume.ToolDecision.Settled.class,
                                s -> assertThat(s.outcome().error().code()).isEqualTo(UnknownOutcomes.CODE)));
    }
}
