package dev.baton.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulatorMainIT {

    @Test
    void runs_the_task_agent_script_by_default() {
        try (var sim = SimulatorMain.run(0, Optional.empty());
                var client = new SimClient(sim.baseUrl())) {
            var answer =
                    client.postJson(ChatBody.create().taskTools().user("hello?").json());

            assertThat(answer.path("choices")
                            .path(0)
                            .path("message")
                            .path("content")
                            .asText())
                    .isEqualTo(TaskAgentScript.HELP);
        }
    }

    @Test
    void runs_a_yaml_script_from_a_file(@TempDir Path dir) throws Exception {
        var script = Files.writeString(dir.resolve("script.yaml"), "fallback: from the file\n");

        try (var sim = SimulatorMain.run(0, Optional.of(script));
                var client = new SimClient(sim.baseUrl())) {
            var answer = client.postJson(ChatBody.create().user("hi").json());

            assertThat(answer.path("choices")
                            .path(0)
                            .path("message")
                            .path("content")
                            .asText())
                    .isEqualTo("from the file");
        }
    }
}
