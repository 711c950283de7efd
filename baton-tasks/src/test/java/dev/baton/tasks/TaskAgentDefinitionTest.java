package dev.baton.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.baton.tasks.domain.TaskService;
import dev.baton.tasks.support.UnusedTaskRepository;
import dev.baton.tasks.tool.TaskToolSource;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bundled "tasks" agent is valid YAML, names exactly the task tools, and its prompt carries the key rules. */
class TaskAgentDefinitionTest {

    @Test
    void the_agent_allows_exactly_the_tools_the_task_source_offers() throws Exception {
        JsonNode agent = new ObjectMapper(new YAMLFactory()).readTree(TaskModule.agentYaml());

        assertThat(agent.get("id").asText()).isEqualTo("tasks");
        assertThat(agent.get("name").asText()).isEqualTo("Task assistant");
        assertThat(agent.get("model").asText()).isEqualTo("default");
        List<String> tools = new ArrayList<>();
        agent.get("tools").forEach(t -> tools.add(t.asText()));
        List<String> offered = new TaskToolSource(
                        new TaskService(new UnusedTaskRepository(), Clock.systemUTC()), Clock.systemUTC())
                .tools().stream().map(t -> t.definition().name()).toList();
        assertThat(tools).containsExactlyInAnyOrderElementsOf(offered);
    }

    @Test
    void the_prompt_tells_the_model_how_to_use_the_tools_safely() throws Exception {
        String prompt = new ObjectMapper(new YAMLFactory())
                .readTree(TaskModule.agentYaml())
                .get("systemPrompt")
                .asText();

        assertThat(prompt)
                .contains("Never invent or guess a task id")
                .contains("list_tasks first")
                .contains("confirmation: true")
                .contains("get_current_time")
                .contains("Never show the user task ids, JSON");
    }
}
