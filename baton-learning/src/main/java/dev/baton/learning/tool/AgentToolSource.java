package dev.baton.learning.tool;

import dev.baton.core.domain.FixedToolSource;
import dev.baton.core.tool.Tool;
import dev.baton.learning.content.ContentJobs;
import dev.baton.learning.library.LibraryService;
import dev.baton.learning.memory.MemoryService;
import dev.baton.learning.progress.ProgressService;
import java.util.List;

/**
 * The learning agent's tools, named "learning-agent", as the learning agent's design names them: searchTopics,
 * detectGranularity, getUserProgress, generateContent, confirmWithUser, storeDecision.
 */
public final class AgentToolSource extends FixedToolSource {
    public static final String NAME = "learning-agent";

    public AgentToolSource(
            LibraryService library, ProgressService progress, ContentJobs content, MemoryService memory) {
        super(
                NAME,
                List.<Tool>of(
                        new SearchTopicsTool(library),
                        new DetectGranularityTool(library),
                        new GetUserProgressTool(progress),
                        new GenerateContentTool(content),
                        new ConfirmWithUserTool(memory),
                        new StoreDecisionTool(memory)));
    }
}
