package dev.baton.simulator;

import java.time.Clock;
import java.util.Optional;

/**
 * What {@code baton serve} answers with when no model provider is configured: one simulator for every built-in
 * agent, each request answered by the script of the agent whose tools it offers (the learning agent's, the learning
 * platform's, the study agent's, or else the task agent's), and the learning agent's content jobs by a short placeholder that says it
 * was written by the simulator.
 */
public final class BundledScript {
    /** The first words of a content job's system prompt (the server's content generator writes it). */
    public static final String CONTENT_PROMPT_START = "You write learning materials.";

    private BundledScript() {}

    public static SimulatorScript create(Clock clock) {
        SimulatorScript tasks = TaskAgentScript.create(clock);
        return SimulatorScript.builder()
                .responder(
                        "content-writer",
                        request -> request.toolNames().isEmpty()
                                        && ScriptJson.system(request).startsWith(CONTENT_PROMPT_START)
                                ? Optional.of(Reply.text(content(request.lastUserMessage())))
                                : Optional.empty())
                .responder(
                        "learning-agent",
                        request -> request.toolNames().contains("searchTopics")
                                ? Optional.of(LearningAgentScript.respond(request))
                                : Optional.empty())
                .responder(
                        "learning-platform",
                        request -> request.toolNames().contains("list_courses")
                                ? Optional.of(LearningPlatformScript.respond(request))
                                : Optional.empty())
                .responder(
                        "study-agent",
                        request -> StudyAgentScript.isStudyRequest(request)
                                ? Optional.of(StudyAgentScript.respond(request))
                                : Optional.empty())
                .responder("tasks", request -> Optional.of(tasks.answer(request).reply()))
                .fallback(TaskAgentScript.HELP)
                .build();
    }

    public static SimulatorScript create() {
        return create(Clock.systemUTC());
    }

    private static String content(String request) {
        String topic = request.replaceFirst("(?i)^topic:\\s*", "").strip();
        return "# " + topic + "\n\n"
                + "_Written by the Baton LLM simulator: configure a model provider for real learning materials._\n\n"
                + "## What you will be able to do\nExplain the main ideas of " + topic + " in your own words.\n\n"
                + "## Check your understanding\n1. What is " + topic + " about?\n";
    }
}
