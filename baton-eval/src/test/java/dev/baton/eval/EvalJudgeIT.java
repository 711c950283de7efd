package dev.baton.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.providers.resolver.ConfiguredModelResolver;
import dev.baton.runtime.config.ConfigFile;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A rubric is judged by a model over its real wire protocol; the judge's verdict decides the check. */
class EvalJudgeIT {

    private static final String SUITE = """
            agent: learning
            scenarios:
              - name: confirmed
                turns:
                  - user: quantum physics
                  - user: "yes"
                    expect:
                      rubric: The assistant says it is preparing the material.
              - name: asked back
                user: physics
                expect:
                  rubric: The assistant says it is preparing the material.
            """;

    @Test
    void the_judge_model_passes_and_fails_rubrics_and_its_reason_reaches_the_report() {
        SimulatorScript judgeScript = SimulatorScript.builder()
                .whenUserMatches(
                        "(?s).*Assistant: Thank you\\. I'm putting that together now\\..*",
                        Reply.text("PASS: it says so."))
                .always(Reply.text("FAIL: it asks a question instead."))
                .build();
        EvalSuite suite = SuiteReader.parse(SUITE, "judged.yaml");
        try (LlmSimulator judgeModel = LlmSimulator.start(judgeScript);
                ConfiguredModelResolver judges = ConfiguredModelResolver.builder()
                        .simulator(judgeModel.baseUrl())
                        .build();
                EvalRuntime runtime = EvalRuntime.start(
                        ConfigFile.none("baton.yaml"), Map.of(), suite.agent(), null, Clock.systemUTC())) {
            Judge judge = new ModelJudge(judges.resolve("simulator:judge"), Duration.ofSeconds(30));
            EvalReport report = new EvalRunner(
                            runtime.baton(), id -> runtime.user(id, suite.roles()), judge, Clock.systemUTC())
                    .run(suite, new EvalRunner.Options(1, 2, runtime.model(), true, 0.5, false));

            assertThat(report.rubricsSkipped()).isZero();
            assertThat(report.scenarios())
                    .extracting(ScenarioResult::name, ScenarioResult::passedRuns)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("confirmed", 1),
                            org.assertj.core.groups.Tuple.tuple("asked back", 0));
            assertThat(report.scenarios().get(1).failures())
                    .containsExactly("turn 1: judge: The assistant says it is preparing the material. — it asks a"
                            + " question instead.");
            // the judge was shown the turn: the user's words, the tools and the answer
            assertThat(judgeModel.requests())
                    .anySatisfy(r -> assertThat(r.lastUserMessage())
                            .contains("User: physics")
                            .contains("Tools called: detectGranularity, confirmWithUser"));
        }
    }
}
