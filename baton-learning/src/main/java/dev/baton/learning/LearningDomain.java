package dev.baton.learning;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.hook.ModuleFactory;
import dev.baton.core.tool.ToolSource;
import dev.baton.domain.Domain;
import dev.baton.domain.DomainContext;
import dev.baton.domain.RunningDomain;
import dev.baton.domain.rest.RouteGroup;
import dev.baton.learning.agent.MemoryGuidanceModule;
import dev.baton.learning.content.ModelContentGenerator;
import dev.baton.learning.content.SessionContentDelivery;
import dev.baton.learning.rest.LearningAgentRoutes;
import dev.baton.learning.rest.LearningCourseRoutes;
import dev.baton.learning.rest.LearningShopRoutes;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The learning domains plugged into Baton: the platform (catalogue, enrolments, grades, cart, labs, Q&amp;A) and the
 * learning agent (topic library, memory, content jobs) — their tables, the "learning" and "learning-platform" agents,
 * their tools, the {@value MemoryGuidanceModule#ID} module, {@code /v1/learning/...}, the content worker and the
 * retention purge, configured by baton.yaml's {@code learning} section ({@link LearningSettings}).
 */
public final class LearningDomain implements Domain {
    /** The agent whose model writes content jobs started over REST (or by an agent that is gone). */
    private static final String CONTENT_AGENT = "learning";

    @Override
    public String name() {
        return "learning";
    }

    @Override
    public int order() {
        return 300;
    }

    @Override
    public List<String> migrations() {
        return List.of(LearningModule.MIGRATIONS);
    }

    @Override
    public List<String> agents() {
        return List.of(LearningModule.LEARNING_AGENT, LearningModule.PLATFORM_AGENT);
    }

    @Override
    public String configSection() {
        return "learning";
    }

    @Override
    public LearningSettings readSettings(JsonNode section) {
        return LearningSettings.parse(section);
    }

    @Override
    public Set<String> moduleIds() {
        return Set.of(MemoryGuidanceModule.ID);
    }

    @Override
    public List<String> evalSuites() {
        return List.of("evals/learning.yaml", "evals/learning-platform.yaml");
    }

    @Override
    public Set<String> userPermissions() {
        return Set.of(LearningPermissions.READ, LearningPermissions.WRITE);
    }

    /** Teachers grade; admins grade too and manage the learning agent's memory of anyone in their tenant. */
    @Override
    public Map<String, Set<String>> roleGrants() {
        return Map.of(
                "teacher", Set.of(LearningPermissions.GRADE),
                "admin", Set.of(LearningPermissions.GRADE, LearningPermissions.ADMIN));
    }

    @Override
    public RunningDomain start(DomainContext context) {
        LearningSettings settings =
                context.settings() == null ? LearningSettings.defaults() : context.settings(LearningSettings.class);
        LearningModule.Options options =
                LearningModule.Options.DEFAULTS.withWorker(settings.jobs()).withRetention(settings.retention());
        if (context.withRuntime()) {
            options = options.withConversations(context.conversations())
                    .withGenerator(new ModelContentGenerator(context.modelCalls(), context.agents(), CONTENT_AGENT));
        }
        var deliveries = context.messageDeliveries();
        if (deliveries.isPresent()) options = options.withDelivery(new SessionContentDelivery(deliveries.get()));
        LearningModule learning = LearningModule.create(context.database(), context.clock(), options);
        learning.seedCatalogue(settings.catalogue());
        learning.seedLibrary(settings.library());
        return new Running(learning);
    }

    private record Running(LearningModule learning) implements RunningDomain {
        @Override
        public List<ToolSource> toolSources() {
            return List.of(learning.platformTools(), learning.agentTools());
        }

        @Override
        public List<ModuleFactory> modules() {
            return List.of(learning.memoryGuidance());
        }

        @Override
        public List<RouteGroup> routes() {
            return List.of(
                    new LearningCourseRoutes(learning),
                    new LearningShopRoutes(learning),
                    new LearningAgentRoutes(learning));
        }

        @Override
        public <T> Optional<T> service(Class<T> type) {
            return Stream.of(
                            learning,
                            learning.catalogue(),
                            learning.learning(),
                            learning.assessment(),
                            learning.commerce(),
                            learning.labs(),
                            learning.engagement(),
                            learning.library(),
                            learning.memory(),
                            learning.content(),
                            learning.progress())
                    .filter(type::isInstance)
                    .map(type::cast)
                    .findFirst();
        }

        @Override
        public AutoCloseable startBackgroundJobs() {
            return learning.startBackgroundJobs();
        }
    }
}
