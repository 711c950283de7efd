package dev.baton.learning.tool;

import static dev.baton.learning.tool.ToolCalls.fieldNames;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.learning.LearningModule;
import dev.baton.learning.support.Learners;
import dev.baton.learning.support.TestDatabases;
import dev.baton.testkit.time.SettableClock;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The learning agent's six tools over a real SQLite database, with the field names its design uses. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentToolsIT {
    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-18T08:00:00Z"));
    private TestDatabases.Opened opened;
    private LearningModule module;
    private ToolCalls tools;
    private Principal alice;

    @BeforeAll
    void open() throws Exception {
        opened = TestDatabases.sqlite();
        module = LearningModule.create(opened.database(), clock);
        module.seedCatalogue(LearningModule.demoCatalogue());
        module.seedLibrary(LearningModule.demoLibrary());
        tools = new ToolCalls(module.agentTools());
    }

    @AfterAll
    void close() throws Exception {
        opened.close();
    }

    @BeforeEach
    void newLearner() {
        alice = Learners.newLearner();
    }

    @Test
    void the_source_offers_the_six_tools_the_learning_design_names() {
        assertThat(module.agentTools().name()).isEqualTo("learning-agent");
        assertThat(module.agentTools().tools())
                .extracting(t -> t.definition().name())
                .containsExactly(
                        "searchTopics",
                        "detectGranularity",
                        "getUserProgress",
                        "generateContent",
                        "confirmWithUser",
                        "storeDecision");
    }

    @Test
    void search_topics_answers_exact_match_fuzzy_matches_and_found() {
        JsonNode result = tools.call("searchTopics", alice, "{\"query\": \"quantam fisics\", \"limit\": 3}");

        assertThat(fieldNames(result)).containsExactly("exactMatch", "fuzzyMatches", "found");
        assertThat(result.get("exactMatch").isNull()).isTrue();
        assertThat(result.get("found").asBoolean()).isTrue();
        JsonNode best = result.get("fuzzyMatches").get(0);
        assertThat(best.get("name").asText()).isEqualTo("Quantum physics");
        assertThat(fieldNames(best)).containsExactly("id", "name", "granularity", "path", "matchedTerm", "score");
        assertThat(tools.call("searchTopics", alice, "{\"query\": \"zzxqv\"}")
                        .get("found")
                        .asBoolean())
                .isFalse();
    }

    @Test
    void detect_granularity_gives_the_level_and_its_reasoning() {
        JsonNode result = tools.call("detectGranularity", alice, "{\"input\": \"Schrödinger equation\"}");

        assertThat(result.get("granularity").asText()).isEqualTo("module");
        assertThat(result.get("reasoning").asText()).contains("Quantum physics");
        assertThat(result.get("inLibrary").asBoolean()).isTrue();
    }

    @Test
    void confirm_then_decide_then_generate_shows_up_in_progress() {
        JsonNode asked = tools.call("confirmWithUser", alice, "{\"question\": \"Leadership - is that right?\"}");
        assertThat(asked.get("awaitingReply").asBoolean()).isTrue();
        assertThat(tools.call("getUserProgress", alice, "{}")
                        .get("pendingQuestion")
                        .asText())
                .isEqualTo("Leadership - is that right?");

        JsonNode decided = tools.call(
                "storeDecision",
                alice,
                "{\"decision\": \"topic_confirmed\", \"data\": {\"topic\": \"Leadership\", \"granularity\": \"subject\"}}");
        JsonNode job = tools.call("generateContent", alice, "{\"topic\": \"Leadership\"}");

        assertThat(decided.get("currentTopic").asText()).isEqualTo("Leadership");
        assertThat(job.get("status").asText()).isEqualTo("queued");
        JsonNode progress = tools.call("getUserProgress", alice, "{}");
        assertThat(progress.get("currentTopic").asText()).isEqualTo("Leadership");
        assertThat(progress.get("pendingQuestion").isNull()).isTrue();
        assertThat(progress.get("content").get(0).get("jobId").asText())
                .isEqualTo(job.get("jobId").asText());
        assertThat(module.memory().memory(alice).decisions().getFirst().sessionId())
                .isEqualTo("session-1");
    }

    @Test
    void another_learners_progress_stays_theirs() {
        tools.call("generateContent", alice, "{\"topic\": \"French\"}");

        JsonNode bob = tools.call("getUserProgress", Learners.newLearner(), "{}");

        assertThat(bob.get("content")).isEmpty();
        assertThat(bob.get("currentTopic").isNull()).isTrue();
    }

    @Test
    void a_bad_decision_reaches_the_model_as_invalid_argument() {
        var refusal = tools.refusal("storeDecision", alice, "{\"decision\": \"Topic Confirmed!\"}");

        assertThat(refusal.code()).isEqualTo("invalid_argument");
        assertThat(tools.refusal("searchTopics", alice, "{\"query\": \"..\"}").getMessage())
                .contains("letters or digits");
    }
}
