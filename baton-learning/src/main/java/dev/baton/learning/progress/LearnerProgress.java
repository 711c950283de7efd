package dev.baton.learning.progress;

import dev.baton.learning.content.ContentJob;
import dev.baton.learning.enrolment.EnrolledCourse;
import dev.baton.learning.memory.AgentState;
import java.util.List;
import java.util.Objects;

/**
 * Where a learner stands, for the learning agent (getUserProgress): their courses and progress, the topic they are
 * on, and the material being prepared for them.
 */
public record LearnerProgress(List<EnrolledCourse> enrolments, AgentState state, List<ContentJob> content) {
    public LearnerProgress {
        enrolments = List.copyOf(enrolments);
        Objects.requireNonNull(state, "state");
        content = List.copyOf(content);
    }
}
