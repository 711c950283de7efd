package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolContext;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.progress.ProgressService;
import java.util.Set;

/**
 * {@code getUserProgress()} → the caller's current topic, pending question, courses with progress, and the status of
 * the material being prepared for them.
 */
final class GetUserProgressTool extends LearningTool {
    static final String NAME = "getUserProgress";

    private final ProgressService progress;

    GetUserProgressTool(ProgressService progress) {
        super(
                NAME,
                "See what the user is learning: their current topic, courses and progress, and the learning"
                        + " materials being prepared for them (with status).",
                NO_PARAMETERS,
                Set.of(LearningPermissions.READ));
        this.progress = progress;
    }

    @Override
    JsonNode call(JsonNode arguments, ToolContext context) {
        Principal principal = context.principal();
        LearningJson.fields(arguments, Set.of());
        return AgentJson.progress(progress.progress(principal));
    }
}
