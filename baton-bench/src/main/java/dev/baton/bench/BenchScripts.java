package dev.baton.bench;

import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;

/** What the simulator answers in the benchmarks: instantly, no pacing. */
public final class BenchScripts {
    /** A user message that makes the model call {@code add_task} once and then answer. */
    public static final String TOOL_PROMPT = "add a benchmark task";
    /** A user message the model answers with text only. */
    public static final String TEXT_PROMPT = "How should I plan my week?";

    public static final String TOOL_ANSWER = "Added “Benchmark task” to your tasks.";
    public static final String TEXT_ANSWER = "Start with the tasks that are due first, block two hours a day for the"
            + " biggest one, and leave Friday afternoon free for whatever slipped.";

    private BenchScripts() {}

    /** {@link #TOOL_PROMPT} → add_task → {@link #TOOL_ANSWER}; anything else → {@link #TEXT_ANSWER}. */
    public static SimulatorScript turns() {
        return SimulatorScript.builder()
                .whenUserSays(
                        TOOL_PROMPT, Reply.toolCall("add_task", "{\"title\":\"Benchmark task\",\"priority\":\"high\"}"))
                .whenToolResult("add_task", Reply.text(TOOL_ANSWER))
                .fallback(TEXT_ANSWER)
                .build();
    }
}
