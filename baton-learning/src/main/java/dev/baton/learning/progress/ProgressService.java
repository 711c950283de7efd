package dev.baton.learning.progress;

import dev.baton.core.auth.Principal;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.content.ContentJob;
import dev.baton.learning.content.ContentJobs;
import dev.baton.learning.enrolment.LearningService;
import dev.baton.learning.memory.MemoryService;
import java.util.List;
import java.util.Objects;

/** Puts a learner's progress together from the services that own its parts; always the caller's own. */
public final class ProgressService {
    /** The newest content jobs a progress report shows. */
    public static final int RECENT_CONTENT = 10;

    private final LearningService learning;
    private final MemoryService memory;
    private final ContentJobs content;

    public ProgressService(LearningService learning, MemoryService memory, ContentJobs content) {
        this.learning = Objects.requireNonNull(learning, "learning");
        this.memory = Objects.requireNonNull(memory, "memory");
        this.content = Objects.requireNonNull(content, "content");
    }

    public LearnerProgress progress(Principal principal) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        List<ContentJob> jobs = content.list(principal);
        return new LearnerProgress(
                learning.enrolments(principal),
                memory.memory(principal).state(),
                jobs.subList(0, Math.min(RECENT_CONTENT, jobs.size())));
    }
}
