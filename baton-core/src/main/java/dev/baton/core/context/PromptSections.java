package dev.baton.core.context;

import java.util.List;

/**
 * The optional parts of the system prompt besides the agent's own behaviour prompt.
 *
 * @param assignmentContext what the assignment (if any) tells the agent; null or blank for none
 * @param constraints rules the configuration cascade adds; null or blank for none
 * @param additionalGuidance guidance from before_ai hooks, one paragraph each
 * @param attachedResources the resources the agent attaches, rendered as untrusted data; null or blank for none
 */
public record PromptSections(
        String assignmentContext, String constraints, List<String> additionalGuidance, String attachedResources) {
    public static final PromptSections NONE = new PromptSections(null, null, List.of(), null);

    public PromptSections {
        additionalGuidance = additionalGuidance == null
                ? List.of()
                : additionalGuidance.stream()
                        .filter(g -> g != null && !g.isBlank())
                        .toList();
    }

    /** Sections without attached resources. */
    public PromptSections(String assignmentContext, String constraints, List<String> additionalGuidance) {
        this(assignmentContext, constraints, additionalGuidance, null);
    }

    /** These sections with {@code text} as the attached resources' section. */
    public PromptSections withAttachedResources(String text) {
        return new PromptSections(assignmentContext, constraints, additionalGuidance, text);
    }

    /** These sections plus more hook guidance. */
    public PromptSections withGuidance(List<String> more) {
        if (more == null || more.isEmpty()) {
            return this;
        }
        var all = new java.util.ArrayList<>(additionalGuidance);
        all.addAll(more);
        return new PromptSections(assignmentContext, constraints, all, attachedResources);
    }
}
