package dev.baton.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.trace.TurnTracing;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.contract.ApiExchanges;
import dev.baton.testkit.contract.HttpApiContract;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** An app without an OpenTelemetry bean: no tracing bean, no trace filter, and its turns work as ever. */
@SpringBootTest(
        classes = StarterWithoutTracingIT.UntracedApp.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class StarterWithoutTracingIT {
    static final LlmSimulator MODEL = LlmSimulator.start(SimulatorScript.builder()
            .whenUserSays("add milk", Reply.toolCall("add_task", "{\"title\":\"milk\"}"))
            .whenToolResult("add_task", Reply.text("Added."))
            .build());
    static final Path DIR = StarterTracingIT.tempDir("baton-starter-untraced");

    @SpringBootApplication
    static class UntracedApp {}

    @LocalServerPort
    int port;

    @Autowired
    ApplicationContext context;

    @DynamicPropertySource
    static void baton(DynamicPropertyRegistry properties) {
        StarterTracingIT.batonProperties(properties, DIR, MODEL);
    }

    @AfterAll
    static void stop() {
        MODEL.close();
    }

    @Test
    void without_open_telemetry_there_is_no_tracing_and_a_tool_turn_works() {
        assertThat(context.getBeanNamesForType(TurnTracing.class)).isEmpty();
        assertThat(context.containsBean("batonTraceContextFilter")).isFalse();

        ApiExchanges api = new ApiExchanges("http://127.0.0.1:" + port, HttpApiContract.SECRET);
        String token = api.token("untraced", "acme", "student");
        String session = StarterTracingIT.startSession(api, token);
        ApiExchanges.Answer answer = api.post(
                "/v1/sessions/" + session + "/messages",
                token,
                "{\"content\":\"add milk\"}",
                "traceparent",
                "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");

        assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
        assertThat(answer.raw()).contains("Added.");
        assertThat(answer.raw()).contains("add_task");
    }
}
