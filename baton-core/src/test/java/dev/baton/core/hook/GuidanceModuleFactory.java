package dev.baton.core.hook;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;

/** A module registered through META-INF/services, as a team's jar would: adds its configured guidance. */
public final class GuidanceModuleFactory implements ModuleFactory {
    @Override
    public String id() {
        return "test-guidance";
    }

    @Override
    public Module create(JsonNode config) {
        if (!config.path("text").isTextual()) {
            throw new IllegalArgumentException("test-guidance needs config.text");
        }
        String text = config.path("text").asText();
        return new TestModules.Lambda(
                new ModuleDescriptor("test-guidance", 60, null, false, Set.of(Hook.BEFORE_AI), null),
                c -> HookResult.guidance(text));
    }
}
