package dev.baton.bench;

/**
 * One turn {@link CrashDrill} asks for.
 *
 * @param id unique within the run ({@code t0042}): in the prompt, the task's title and the answer
 * @param tool the model calls {@code add_task} (else it answers with text only)
 * @param streamed asked as SSE (else as one JSON answer)
 */
record CrashTurn(String id, boolean tool, boolean streamed) {
    String prompt() {
        return CrashScript.prompt(id, tool);
    }
}
