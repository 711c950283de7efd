package dev.baton.core.hook;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.testing.TestTools;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/** Modules with their behaviour given as lambdas, and contexts to call them with. */
final class TestModules {
    static final Instant NOW = Instant.parse("2025-05-01T09:00:00Z");
    static final AgentDefinition AGENT = TestTools.agent(List.of(), null);
    static final Principal ALICE = TestTools.principal("sessions:write:self");
    static final Session SESSION = Session.start("session-1", "default", "user-1", "helper", null, NOW);

    private TestModules() {}

    /** A module whose handle runs {@code body}. */
    record Lambda(ModuleDescriptor descriptor, Function<HookContext, HookResult> body, Supplier<OutputFilter> filter)
            implements Module {
        Lambda(ModuleDescriptor descriptor, Function<HookContext, HookResult> body) {
            this(descriptor, body, () -> OutputFilter.NONE);
        }

        @Override
        public HookResult handle(HookContext context) {
            return body.apply(context);
        }

        @Override
        public OutputFilter outputFilter(HookContext context) {
            return filter.get();
        }
    }

    static Lambda module(String id, int priority, Set<Hook> hooks, Function<HookContext, HookResult> body) {
        return new Lambda(new ModuleDescriptor(id, priority, null, false, hooks, null), body);
    }

    static HookContext turn(String message) {
        return HookContexts.forTurn("req-1", ALICE, SESSION, AGENT, null, List.of(), message, NOW);
    }
}
