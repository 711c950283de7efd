package dev.baton.runtime.session.tool;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.domain.FixedToolSource;
import dev.baton.runtime.assignment.Assignments;
import dev.baton.runtime.session.PriorSessions;
import java.util.List;

/**
 * The tools every agent may list besides its domain's: {@code get_assignment_info} (the current session's
 * assignment) and {@code search_prior_sessions} (full-text search over the caller's own earlier conversations).
 */
public final class StandardToolSource extends FixedToolSource {
    public static final String NAME = "standard";

    public StandardToolSource(ConversationStore sessions, Assignments assignments, PriorSessions prior) {
        super(NAME, List.of(new AssignmentInfoTool(sessions, assignments), new SearchPriorSessionsTool(prior)));
    }
}
