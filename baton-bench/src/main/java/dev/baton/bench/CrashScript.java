package dev.baton.bench;

import dev.baton.simulator.Condition;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.time.Duration;

/**
 * What the model answers in {@link CrashDrill}, paced so that a kill lands inside a turn: a tool turn asks for
 * {@code add_task} with the turn's own title, then answers naming it; a text turn streams a story naming the turn.
 * Every answer is unique to its turn, so an answer given to the wrong client, or twice, shows.
 */
final class CrashScript {
    static final String AGENT = "crash";
    /** The agent's definition (agents/crash.yaml). */
    static final String AGENT_YAML = """
            id: crash
            name: Crash drill agent
            model: default
            tools: [add_task]
            systemPrompt: You keep the user's tasks.
            """;

    private static final String FILLER = "and the rest of this answer is streamed a word at a time so that a kill"
            + " can land while the model is still talking and the turn has to be finished by another instance from"
            + " its last step without running the tool again";

    private CrashScript() {}

    /** What the user says for turn {@code id}. */
    static String prompt(String id, boolean tool) {
        return (tool ? "crash tool " : "crash text ") + id;
    }

    /** The title the tool turn {@code id} adds. */
    static String title(String id) {
        return "crash " + id;
    }

    /** The answer of turn {@code id}, as the model gives it. */
    static String answer(String id, boolean tool) {
        return (tool ? "Added " + title(id) + " to your tasks, " : "Story of " + id + ", ") + FILLER + ".";
    }

    /**
     * @param tokensPerSecond the pace of every answer (one word a delta; the tool call's arguments in fragments)
     */
    static SimulatorScript script(Duration firstToken, double tokensPerSecond) {
        return SimulatorScript.builder()
                .firstTokenLatency(firstToken)
                .tokensPerSecond(tokensPerSecond)
                .whenUserMatches(
                        "^crash tool (t[0-9]+)$",
                        Reply.toolCall("add_task", "{\"title\":\"crash $1\",\"priority\":\"low\"}"))
                .when(
                        Condition.ToolResult.of("add_task", "\"title\"\\s*:\\s*\"crash (t[0-9]+)\""),
                        Reply.text("Added crash $1 to your tasks, " + FILLER + "."))
                .whenUserMatches("^crash text (t[0-9]+)$", Reply.text("Story of $1, " + FILLER + "."))
                .fallback("That went wrong.")
                .build();
    }
}
