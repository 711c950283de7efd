package dev.baton.server.session.tool;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolSource;
import dev.baton.server.assignment.Assignments;
import dev.baton.server.session.PriorSessions;
import java.util.List;

/**
 * The tools every agent may list besides its domain's: {@code get_assignment_info} (the current session's
 * assignment) and {@code search_prior_sessions} (full-text search over the caller's own earlier conversations).
 */
public final class StandardToolSource implements ToolSource {
    public static final String NAME = "standard";

    private final List<Tool> tools;

    public StandardToolSource(ConversationStore sessions, Assignments assignments, PriorSessions prior) {
        this.tools = List.of(new AssignmentInfoTool(sessions, assignments), new SearchPriorSessionsTool(prior));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Tool> tools() {
        return tools;
    }
}
