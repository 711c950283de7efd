package dev.baton.learning.assessment;

import dev.baton.learning.LearningException;
import dev.baton.learning.Texts;

/**
 * What an instructor records.
 *
 * @param learnerId the user id of the graded learner (in the instructor's tenant)
 */
public record NewGrade(String learnerId, String item, int points, int maxPoints) {
    public static final int MAX_ITEM = 200;
    public static final int MAX_POINTS = 10_000;

    public NewGrade {
        if (!Texts.plausibleId(learnerId)) throw LearningException.invalidArgument("learnerId is required");
        item = Texts.required(item, "item", MAX_ITEM);
        if (maxPoints < 1 || maxPoints > MAX_POINTS)
            throw LearningException.invalidArgument("maxPoints must be 1-" + MAX_POINTS + " (got " + maxPoints + ")");
        if (points < 0 || points > maxPoints)
            throw LearningException.invalidArgument("points must be 0-" + maxPoints + " (got " + points + ")");
    }
}
