package dev.baton.learning.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.hook.Hook;
import dev.baton.core.hook.HookContext;
import dev.baton.core.hook.HookResult;
import dev.baton.core.hook.Module;
import dev.baton.core.hook.ModuleDescriptor;
import dev.baton.core.hook.ModuleFactory;
import dev.baton.learning.Learner;
import dev.baton.learning.content.ContentJobs;
import dev.baton.learning.memory.MemoryService;
import java.util.Objects;

/**
 * Makes the learning agent's memory readable by it: before each model call, what it remembers of the learner (current
 * topic, pending question, latest decisions, materials being prepared) goes into the system prompt's
 * {@code ## Additional Guidance}. Named {@value #ID} in an agent's {@code modules:}; read-only, so it fails open.
 */
public final class MemoryGuidanceModule implements Module {
    public static final String ID = "learning-memory";

    private final MemoryService memory;
    private final ContentJobs content;

    public MemoryGuidanceModule(MemoryService memory, ContentJobs content) {
        this.memory = Objects.requireNonNull(memory, "memory");
        this.content = Objects.requireNonNull(content, "content");
    }

    /** The factory to register with the module registry (its configuration takes no settings). */
    public static ModuleFactory factory(MemoryService memory, ContentJobs content) {
        MemoryGuidanceModule module = new MemoryGuidanceModule(memory, content);
        return new ModuleFactory() {
            @Override
            public String id() {
                return ID;
            }

            @Override
            public Module create(JsonNode config) {
                return module;
            }
        };
    }

    @Override
    public ModuleDescriptor descriptor() {
        return ModuleDescriptor.of(ID, Hook.BEFORE_AI);
    }

    @Override
    public HookResult handle(HookContext context) {
        Learner learner = new Learner(context.scope().tenantId(), context.user().id());
        String guidance =
                MemoryGuidance.of(memory.recall(learner), content.recent(learner, MemoryGuidance.CONTENT_SHOWN));
        return guidance.isEmpty() ? HookResult.proceed() : HookResult.guidance(guidance);
    }
}
