package dev.baton.learning.tool;

import dev.baton.core.domain.FixedToolSource;
import dev.baton.core.tool.Tool;
import dev.baton.learning.assessment.AssessmentService;
import dev.baton.learning.catalogue.CatalogueService;
import dev.baton.learning.commerce.CommerceService;
import dev.baton.learning.engagement.EngagementService;
import dev.baton.learning.enrolment.LearningService;
import dev.baton.learning.labs.LabsService;
import dev.baton.learning.navigation.NavigationService;
import java.util.List;

/**
 * The learning platform's tool catalogue, named "learning-platform", with the nine tools as the platform's design
 * names them: list_courses, get_my_enrollments, enroll_in_course, get_course_grades, search_courses, add_to_cart,
 * book_lab, ask_question, navigate_to_route. Each maps its arguments onto one service call made as the caller.
 */
public final class PlatformToolSource extends FixedToolSource {
    public static final String NAME = "learning-platform";

    public PlatformToolSource(
            CatalogueService catalogue,
            LearningService learning,
            AssessmentService assessment,
            CommerceService commerce,
            LabsService labs,
            EngagementService engagement,
            NavigationService navigation) {
        super(
                NAME,
                List.<Tool>of(
                        new ListCoursesTool(catalogue),
                        new GetMyEnrollmentsTool(learning),
                        new EnrollInCourseTool(learning),
                        new GetCourseGradesTool(assessment),
                        new SearchCoursesTool(catalogue),
                        new AddToCartTool(commerce),
                        new BookLabTool(labs),
                        new AskQuestionTool(engagement),
                        new NavigateToRouteTool(navigation)));
    }
}
