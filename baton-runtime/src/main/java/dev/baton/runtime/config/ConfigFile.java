package dev.baton.runtime.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.baton.core.config.ConfigProblem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.OptionalInt;

/**
 * A YAML configuration file (baton.yaml, an agent file) read into a tree, with the line of every key and list item
 * kept beside it, so that a {@link ConfigProblem} found by whichever reader looked at a section can be reported as
 * {@code baton.yaml:12: unknown key 'sever' (did you mean 'server'?)}.
 *
 * <p>The tree is Jackson's own; the lines come from a second pass of the same YAML parser over the same text, keyed by
 * JSON pointer, and are attached to the tree's mappings and lists by identity. A key written twice in one mapping is
 * an error rather than "the last one wins".
 */
public final class ConfigFile {

    /**
     * A key written twice is an error, not "the last one wins"; {@code key:} with nothing after it is null, as YAML
     * says (not an empty text, which a section reader would refuse as "not a mapping").
     */
    private static final ObjectMapper MAPPER = new ObjectMapper(YAMLFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
            .build());

    private final String source;
    private final JsonNode root;
    /** For each mapping and list of the tree: the line of each key (or item index). */
    private final Map<JsonNode, Map<String, Integer>> lines;
    /** The line where each mapping, list and text value starts. */
    private final Map<JsonNode, Integer> starts;

    private ConfigFile(
            String source, JsonNode root, Map<JsonNode, Map<String, Integer>> lines, Map<JsonNode, Integer> starts) {
        this.source = source;
        this.root = root;
        this.lines = lines;
        this.starts = starts;
    }

    /** The file as a tree with lines; {@code source} (how messages name it) is the path as given. */
    public static ConfigFile read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (IOException e) {
            throw new ConfigException("cannot read " + file + ": " + e.getMessage());
        }
    }

    /** A stream's YAML; {@code source} names it in messages. */
    public static ConfigFile read(InputStream in, String source) {
        try {
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), source);
        } catch (IOException e) {
            throw new ConfigException("cannot read " + source + ": " + e.getMessage());
        }
    }

    /** No file: an empty tree. */
    public static ConfigFile none(String source) {
        return new ConfigFile(source, MissingNode.getInstance(), Map.of(), Map.of());
    }

    /**
     * YAML text as a tree with lines.
     *
     * @throws ConfigException "{@code source:line: what is wrong}" when the text is not YAML or repeats a key
     */
    public static ConfigFile parse(String text, String source) {
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw syntaxError(source, e);
        }
        if (root == null || root.isMissingNode() || root.isNull()) return none(source);
        Map<String, Integer> byPointer = new HashMap<>();
        try (JsonParser p = MAPPER.getFactory().createParser(text)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t.isStructEnd()) continue;
                // a key, or a list item's first token, at its pointer; a mapping or list that starts here belongs to
                // the place it has in its parent (the context it opened is its own)
                JsonStreamContext at = t.isStructStart() ? p.getParsingContext().getParent() : p.getParsingContext();
                byPointer.putIfAbsent(
                        at.pathAsPointer().toString(), p.currentTokenLocation().getLineNr());
            }
        } catch (IOException e) {
            throw syntaxError(source, e);
        }
        Map<JsonNode, Map<String, Integer>> lines = new IdentityHashMap<>();
        Map<JsonNode, Integer> starts = new IdentityHashMap<>();
        index(root, JsonPointer.empty(), byPointer, lines, starts);
        return new ConfigFile(source, root, lines, starts);
    }

    private static void index(
            JsonNode node,
            JsonPointer at,
            Map<String, Integer> byPointer,
            Map<JsonNode, Map<String, Integer>> lines,
            Map<JsonNode, Integer> starts) {
        if (!node.isContainerNode()) return;
        Map<String, Integer> own = new HashMap<>();
        lines.put(node, own);
        if (node.isObject()) {
            node.properties().forEach(e -> {
                JsonPointer child = at.appendProperty(e.getKey());
                Integer line = byPointer.get(child.toString());
                if (line != null) {
                    own.put(e.getKey(), line);
                    if (e.getValue().isContainerNode() || e.getValue().isTextual()) starts.put(e.getValue(), line);
                }
                index(e.getValue(), child, byPointer, lines, starts);
            });
        } else {
            for (int i = 0; i < node.size(); i++) {
                JsonPointer child = at.appendIndex(i);
                Integer line = byPointer.get(child.toString());
                if (line != null) {
                    own.put(Integer.toString(i), line);
                    if (node.get(i).isContainerNode() || node.get(i).isTextual()) starts.put(node.get(i), line);
                }
                index(node.get(i), child, byPointer, lines, starts);
            }
        }
    }

    /** How messages name the file. */
    public String source() {
        return source;
    }

    /** The file's tree; missing when the file is empty or absent. */
    public JsonNode root() {
        return root;
    }

    /** The line of the key at {@code path} ({@code "server", "port"}), when the file has it. */
    public OptionalInt line(String... path) {
        if (path.length == 0) return OptionalInt.empty();
        JsonNode parent = root;
        for (int i = 0; i < path.length - 1; i++) parent = parent.path(path[i]);
        Map<String, Integer> own = lines.get(parent);
        Integer line = own == null ? null : own.get(path[path.length - 1]);
        return line == null ? OptionalInt.empty() : OptionalInt.of(line);
    }

    /** The line of the problem's key (or item, or value), when the problem is about a value of this file. */
    public OptionalInt line(ConfigProblem problem) {
        if (problem.parent() != null) {
            Map<String, Integer> own = lines.get(problem.parent());
            if (own != null && problem.key() != null && own.containsKey(problem.key()))
                return OptionalInt.of(own.get(problem.key()));
            return OptionalInt.empty();
        }
        // only mappings, lists and non-empty text are distinct objects: a small number or a boolean may be shared
        JsonNode value = problem.value();
        if (value != null
                && (value.isContainerNode()
                        || value.isTextual() && !value.asText().isEmpty())) {
            Integer line = starts.get(value);
            if (line != null) return OptionalInt.of(line);
        }
        return OptionalInt.empty();
    }

    /**
     * The configuration error {@code failure} stands for, with this file's name and the line when the failure (or a
     * cause of it) is a {@link ConfigProblem} about this file; empty when it is not about this file.
     */
    public java.util.Optional<ConfigException> explain(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ConfigProblem p) {
                OptionalInt line = line(p);
                if (line.isEmpty()) return java.util.Optional.empty();
                return java.util.Optional.of(new ConfigException(
                        source + ":" + line.getAsInt() + ": " + p.getMessage() + Suggestions.didYouMean(p), p));
            }
        }
        return java.util.Optional.empty();
    }

    private static ConfigException syntaxError(String source, IOException e) {
        String message = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
        // SnakeYAML's messages run over several lines with a drawing of the spot: the first line says what is wrong
        String first = message == null
                ? "not valid YAML"
                : message.lines().findFirst().orElse(message).trim();
        JsonLocation at = e instanceof JsonProcessingException j ? j.getLocation() : null;
        String where = at != null && at.getLineNr() > 0 ? source + ":" + at.getLineNr() : source;
        return new ConfigException(where + ": " + first, e);
    }
}
