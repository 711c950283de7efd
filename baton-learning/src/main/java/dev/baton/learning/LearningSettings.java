package dev.baton.learning;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigNodes;
import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.ConfigSection;
import dev.baton.learning.content.ContentWorker;
import dev.baton.learning.library.LibrarySeed;
import dev.baton.learning.memory.RetentionJob;
import dev.baton.learning.seed.CatalogueSeed;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.config.Yaml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * baton.yaml's {@code learning} section:
 *
 * <pre>{@code
 * learning:
 *   catalogue: demo        # demo (the default): the bundled dozen courses and three labs, seeded into an empty
 *                          # catalogue on first start; none: seed nothing; or a path to your own catalogue (YAML/JSON)
 *   library: demo          # the topic library the learning agent searches: demo, none or a path
 *   retention:             # the learning agent's conversations and memory
 *     maxAge: 30d          # purged once this old (conversations by last activity, memory by last change)
 *     every: 1h            # how often the purge runs
 *     batchSize: 500       # the most rows of each kind one run deletes
 *   contentJobs:           # generateContent's background jobs
 *     poll: 2s             # how often an idle worker looks for queued jobs
 *     lease: 5m            # how long a worker holds a job before another instance may take it over
 *     maxAttempts: 3
 * }</pre>
 */
public record LearningSettings(
        CatalogueSeed catalogue, LibrarySeed library, RetentionJob.Settings retention, ContentWorker.Settings jobs) {

    /** The settings of a learning section that is absent: the demo catalogue and library, the default jobs. */
    public static LearningSettings defaults() {
        return parse(com.fasterxml.jackson.databind.node.MissingNode.getInstance());
    }

    /** Reads and checks baton.yaml's {@code learning} section (a missing node for none). */
    public static LearningSettings parse(JsonNode section) {
        try {
            ConfigSection.of(section, "learning", "catalogue", "library", "retention", "contentJobs");
            return new LearningSettings(
                    seed(
                            section.path("catalogue"),
                            "catalogue",
                            LearningModule::demoCatalogue,
                            CatalogueSeed.NONE,
                            CatalogueSeed::parse),
                    seed(
                            section.path("library"),
                            "library",
                            LearningModule::demoLibrary,
                            LibrarySeed.NONE,
                            LibrarySeed::parse),
                    retention(section.path("retention")),
                    jobs(section.path("contentJobs")));
        } catch (ConfigProblem e) {
            // located by whoever reports it (the file and the line)
            throw new ConfigException(e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("learning." + e.getMessage());
        }
    }

    private static RetentionJob.Settings retention(JsonNode node) {
        ConfigSection.of(node, "learning.retention", "maxAge", "every", "batchSize");
        RetentionJob.Settings d = RetentionJob.Settings.DEFAULTS;
        try {
            return new RetentionJob.Settings(
                    ConfigNodes.duration(node.path("maxAge"), d.maxAge()),
                    ConfigNodes.duration(node.path("every"), d.every()),
                    node.path("batchSize").asInt(d.batchSize()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("retention: " + e.getMessage(), e);
        }
    }

    private static ContentWorker.Settings jobs(JsonNode node) {
        ConfigSection.of(node, "learning.contentJobs", "poll", "lease", "maxAttempts");
        ContentWorker.Settings d = ContentWorker.Settings.DEFAULTS;
        try {
            return new ContentWorker.Settings(
                    ConfigNodes.duration(node.path("poll"), d.poll()),
                    ConfigNodes.duration(node.path("lease"), d.lease()),
                    node.path("maxAttempts").asInt(d.maxAttempts()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("contentJobs: " + e.getMessage(), e);
        }
    }

    private static <T> T seed(JsonNode node, String name, Supplier<T> demo, T none, Function<JsonNode, T> parse) {
        String value =
                node.isMissingNode() || node.isNull() ? "demo" : node.asText().strip();
        try {
            return switch (value) {
                case "demo" -> demo.get();
                case "none" -> none;
                default -> {
                    Path file = Path.of(value);
                    if (!Files.isRegularFile(file)) throw new IllegalArgumentException("file not found: " + file);
                    yield parse.apply(Yaml.read(file));
                }
            };
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
    }
}
