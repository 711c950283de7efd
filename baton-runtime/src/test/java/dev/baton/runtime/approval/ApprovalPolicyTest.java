package dev.baton.runtime.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.ApprovalPolicy;
import dev.baton.core.agent.ApprovalRules;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.runtime.config.Yaml;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ApprovalPolicyTest {
    private static final ToolDefinition DELETE = tool("delete_task", true);
    private static final ToolDefinition LIST = tool("list_tasks", false);

    private static ToolDefinition tool(String name, boolean destructive) {
        return new ToolDefinition(name, "d", JsonNodeFactory.instance.objectNode(), Set.of(), null, destructive);
    }

    private static AgentDefinition agent(String yaml) {
        AgentDefinition a = AgentDefinition.of("a", "p", "m:m", List.of("delete_task", "list_tasks"));
        return yaml == null
                ? a
                : a.withApproval(ApprovalRules.from(Yaml.parse(yaml).path("approval"), a.id()));
    }

    @Test
    void by_default_only_destructive_tools_wait_for_approval() {
        AgentDefinition plain = agent(null);

        assertThat(plain.approval()
                        .policyFor("delete_task", ApprovalPolicy.WHEN_DESTRUCTIVE)
                        .reason(DELETE))
                .hasValueSatisfying(r -> assertThat(r).contains("delete_task"));
        assertThat(plain.approval()
                        .policyFor("list_tasks", ApprovalPolicy.WHEN_DESTRUCTIVE)
                        .reason(LIST))
                .isEmpty();
    }

    @Test
    void an_agent_overrides_the_default_for_all_its_tools_or_tool_by_tool() {
        assertThat(agent("approval: never").approval().policyFor("delete_task", ApprovalPolicy.WHEN_DESTRUCTIVE))
                .isEqualTo(ApprovalPolicy.NEVER);
        AgentDefinition perTool = agent("approval: {default: always, tools: {list_tasks: never}}");
        assertThat(perTool.approval().policyFor("list_tasks", ApprovalPolicy.WHEN_DESTRUCTIVE))
                .isEqualTo(ApprovalPolicy.NEVER);
        assertThat(perTool.approval().policyFor("delete_task", ApprovalPolicy.WHEN_DESTRUCTIVE))
                .isEqualTo(ApprovalPolicy.ALWAYS);
        assertThat(agent("approval: {tools: {list_tasks: always}}")
                        .approval()
                        .policyFor("delete_task", ApprovalPolicy.NEVER))
                .as("the configured default where the agent names neither the tool nor a default")
                .isEqualTo(ApprovalPolicy.NEVER);
    }

    @Test
    void a_mistaken_section_fails_at_start_naming_the_agent() {
        assertThatThrownBy(() -> agent("approval: sometimes"))
                .hasMessageContaining("agent a: approval")
                .hasMessageContaining("never, always or when_destructive");
        assertThatThrownBy(() -> agent("approval: {tool: {x: never}}")).hasMessageContaining("unknown field 'tool'");
        assertThatThrownBy(() -> agent("approval: {tools: {x: 3}}")).hasMessageContaining("tools.x");
        agent("approval: {default: never, tools: {x: always}}");
        agent(null);
    }

    @Test
    void the_settings_read_the_approvals_section() {
        ApprovalSettings s = ApprovalSettings.from(Yaml.parse("approvals: {expiresAfter: 2h, defaultPolicy: always}")
                .path("approvals"));

        assertThat(s.expiresAfter()).isEqualTo(Duration.ofHours(2));
        assertThat(s.defaultPolicy()).isEqualTo(ApprovalPolicy.ALWAYS);
        assertThat(ApprovalSettings.from(Yaml.parse("{}").path("approvals"))).isEqualTo(ApprovalSettings.DEFAULTS);
    }
}
