package dev.baton.core.hook;

import dev.baton.core.turn.TurnRequest;
import java.util.List;

/**
 * The seam where modules hook into a turn (DESIGN §4). A placeholder for the full module pipeline: for now a hook
 * can add guidance to the system prompt before the model runs and rewrite the final answer after it. A hook that
 * throws is logged and skipped (fail open).
 */
public interface TurnHooks {

    /** Hooks that do nothing. */
    TurnHooks NONE = new TurnHooks() {};

    /**
     * Runs after the request was validated and before the user message is saved.
     *
     * @return extra guidance for the "## Additional Guidance" section of the system prompt; empty for none
     */
    default List<String> beforeAi(TurnRequest request) {
        return List.of();
    }

    /**
     * Runs when the model has answered, before the answer is saved.
     *
     * @return the answer to save and report, {@code answer} itself to keep it
     */
    default String afterAi(TurnRequest request, String answer) {
        return answer;
    }
}
