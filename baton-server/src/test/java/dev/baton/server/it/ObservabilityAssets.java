package dev.baton.server.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.app.config.ConfigLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Grafana dashboard (docs/grafana/baton-dashboard.json) and the Prometheus alert rules
 * (docs/prometheus/baton-alerts.yaml) shipped with Baton, parsed, and the metric names their queries read.
 */
final class ObservabilityAssets {
    /** A series name in PromQL: Baton's own and the HTTP server's. */
    private static final Pattern SERIES = Pattern.compile("\\b(baton_[a-z0-9_]+|http_server_[a-z0-9_]+)\\b");

    private ObservabilityAssets() {}

    static Path docs() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("docs/grafana"))) return dir.resolve("docs");
        }
        throw new IllegalStateException("no docs/grafana above " + Path.of("").toAbsolutePath());
    }

    static JsonNode dashboard() {
        return read(docs().resolve("grafana/baton-dashboard.json"), new ObjectMapper());
    }

    static JsonNode alertRules() {
        return read(docs().resolve("prometheus/baton-alerts.yaml"), ConfigLoader.yamlMapper());
    }

    /** Every PromQL expression of the dashboard's panels. */
    static List<String> dashboardQueries(JsonNode dashboard) {
        List<String> queries = new ArrayList<>();
        dashboard
                .path("panels")
                .forEach(p -> p.path("targets")
                        .forEach(t -> queries.add(t.path("expr").asText())));
        dashboard.path("templating").path("list").forEach(v -> {
            if (v.path("type").asText().equals("query"))
                queries.add(v.path("query").asText());
        });
        return queries;
    }

    /** Every rule's expression. */
    static List<String> alertExpressions(JsonNode rules) {
        List<String> expressions = new ArrayList<>();
        rules.path("groups")
                .forEach(g -> g.path("rules")
                        .forEach(r -> expressions.add(r.path("expr").asText())));
        return expressions;
    }

    static Set<String> seriesIn(List<String> queries) {
        Set<String> names = new TreeSet<>();
        for (String q : queries) {
            Matcher m = SERIES.matcher(q);
            while (m.find()) names.add(m.group(1));
        }
        return names;
    }

    private static JsonNode read(Path file, ObjectMapper mapper) {
        try {
            return mapper.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
