package dev.baton.image;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What can be read from a Helm template without Helm: its actions ({@code {{ ... }}}), whether their blocks open and
 * close in order, the {@code .Values} paths they read, and the YAML left when the actions are taken out.
 */
final class ChartTemplates {
    private static final Pattern ACTION = Pattern.compile("\\{\\{-?\\s*(.*?)\\s*-?}}", Pattern.DOTALL);
    private static final Pattern OPENS = Pattern.compile("^(if|range|with|define|block)\\b.*");
    private static final Pattern VALUES = Pattern.compile("\\.Values((?:\\.[A-Za-z_][A-Za-z0-9_]*)+)");

    private ChartTemplates() {}

    /** The text inside each action, in order; fails when a {@code {{} has no {@code }}}. */
    static List<String> actions(String template) {
        String withoutActions = ACTION.matcher(template).replaceAll("");
        if (withoutActions.contains("{{") || withoutActions.contains("}}")) {
            throw new AssertionError("an unbalanced {{ or }} in:\n" + template);
        }
        return ACTION.matcher(template).results().map(m -> m.group(1)).toList();
    }

    /**
     * Checks that every {@code if}/{@code range}/{@code with}/{@code define} is closed by its own {@code end}, and
     * {@code else} only stands inside one; comments ({@code /* *\/}) are not blocks.
     */
    static void checkBlocks(String name, String template) {
        Deque<String> open = new ArrayDeque<>();
        for (String action : actions(template)) {
            if (action.startsWith("/*")) continue;
            if (OPENS.matcher(action).matches()) {
                open.push(action);
            } else if (action.equals("end")) {
                if (open.isEmpty()) throw new AssertionError(name + ": an end closes no block");
                open.pop();
            } else if (action.startsWith("else") && open.isEmpty()) {
                throw new AssertionError(name + ": else outside a block");
            }
        }
        if (!open.isEmpty()) throw new AssertionError(name + ": not closed: " + open);
    }

    /** The {@code .Values} paths the template reads, e.g. {@code image.repository}. */
    static Set<String> valuePaths(String template) {
        Set<String> paths = new LinkedHashSet<>();
        for (String action : actions(template)) {
            Matcher m = VALUES.matcher(action);
            while (m.find()) paths.add(m.group(1).substring(1));
        }
        return paths;
    }

    /** Whether {@code path} (dot-separated) names an entry of {@code values}. */
    static boolean exists(Map<?, ?> values, String path) {
        Object node = values;
        for (String key : path.split("\\.")) {
            if (!(node instanceof Map<?, ?> map) || !map.containsKey(key)) return false;
            node = map.get(key);
        }
        return true;
    }

    /**
     * The template as YAML without Helm: a line that is only an action goes (it renders to nothing, or to a block
     * that {@code nindent} puts on lines of its own), and an action inside a line becomes a plain scalar.
     */
    static String strip(String template) {
        StringBuilder out = new StringBuilder();
        for (String line : template.split("\n", -1)) {
            if (line.isBlank() || ACTION.matcher(line.trim()).replaceAll("").isBlank()) continue;
            out.append(ACTION.matcher(line).replaceAll("templated")).append('\n');
        }
        return out.toString();
    }
}
