package dev.baton.server.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.learning.LearningModule;
import dev.baton.learning.seed.CatalogueSeed;
import dev.baton.runtime.config.ConfigException;
import dev.baton.server.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * baton.yaml's {@code learning} section:
 *
 * <pre>{@code
 * learning:
 *   catalogue: demo        # demo (the default): the bundled dozen courses and three labs, seeded into an empty
 *                          # catalogue on first start; none: seed nothing; or a path to your own catalogue (YAML/JSON)
 * }</pre>
 */
record LearningSettings(CatalogueSeed catalogue) {

    static LearningSettings parse(JsonNode section) {
        return new LearningSettings(catalogue(section.path("catalogue")));
    }

    private static CatalogueSeed catalogue(JsonNode node) {
        String value =
                node.isMissingNode() || node.isNull() ? "demo" : node.asText().strip();
        try {
            return switch (value) {
                case "demo" -> LearningModule.demoCatalogue();
                case "none" -> CatalogueSeed.NONE;
                default -> {
                    Path file = Path.of(value);
                    if (!Files.isRegularFile(file))
                        throw new ConfigException("learning.catalogue: file not found: " + file);
                    yield CatalogueSeed.parse(ConfigLoader.readYaml(file));
                }
            };
        } catch (IllegalArgumentException e) {
            throw new ConfigException("learning.catalogue: " + e.getMessage());
        }
    }
}
