package dev.baton.modules.topic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.hook.Hook;
import dev.baton.core.hook.Module;
import dev.baton.core.hook.ModuleDescriptor;
import dev.baton.core.hook.ModuleFactory;
import dev.baton.modules.config.ModuleConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Creates {@code topic-guard} modules. The rules come from the agent ({@code constraints.topics},
 * {@code constraints.deny}); the module's config (all optional) tunes how they are applied:
 *
 * <pre>{@code
 * modules:
 *   - id: topic-guard
 *     config:
 *       keywords: {algebra: [equation, solve, variable], geometry: [triangle, angle]}
 *       minWords: 4          # shorter messages skip the allow-list check
 *       followUpWords: 12    # short follow-ups to an on-topic message pass
 *       response: "I can only help with {topics}."
 * }</pre>
 */
public final class TopicGuardFactory implements ModuleFactory {

    private static final Set<String> KEYS = Set.of("keywords", "minWords", "followUpWords", "response");

    @Override
    public String id() {
        return TopicGuardModule.ID;
    }

    @Override
    public Module create(JsonNode config) {
        ModuleConfig c = ModuleConfig.of(TopicGuardModule.ID, config, KEYS);
        Map<String, List<String>> keywords = new LinkedHashMap<>();
        JsonNode k = c.node().path("keywords");
        if (!k.isMissingNode() && !k.isNull()) {
            if (!k.isObject()) {
                throw c.invalid("keywords", "must map topic names to lists of keywords");
            }
            k.fields().forEachRemaining(e -> {
                List<String> words = new ArrayList<>();
                if (e.getValue().isArray()) {
                    e.getValue().forEach(w -> words.add(w.asText()));
                } else {
                    words.add(e.getValue().asText());
                }
                keywords.put(e.getKey(), words);
            });
        }
        TopicGuardModule.Settings settings;
        try {
            settings = new TopicGuardModule.Settings(
                    keywords, c.integer("minWords", 4), c.integer("followUpWords", 12), c.string("response", null));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(TopicGuardModule.ID + ": " + e.getMessage(), e);
        }
        ModuleDescriptor base = ModuleDescriptor.of(TopicGuardModule.ID, Hook.BEFORE_AI)
                .withPriority(TopicGuardModule.DEFAULT_PRIORITY);
        return new TopicGuardModule(base, settings);
    }
}
