package dev.baton.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.ConfigSection;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.config.ConfigFile;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads a scenario suite (docs/evals.md has the schema) strictly, like the rest of Baton's configuration: an unknown
 * key, a value of the wrong type, an empty scenario or a regular expression that does not compile is an error that
 * names the file and the line ({@code evals/learning.yaml:42: unknown key 'answerContain' in scenario 'yes' turn 1
 * expect (did you mean 'answerContains'?)}), never a silent default.
 */
public final class SuiteReader {

    static final List<String> SUITE_KEYS = List.of("suite", "agent", "description", "roles", "scenarios");
    static final List<String> SCENARIO_KEYS = List.of("name", "category", "maxCostUsd", "turns", "user", "expect");
    static final List<String> TURN_KEYS = List.of("user", "expect");
    static final List<String> EXPECT_KEYS = List.of(
            "toolsCalled",
            "toolsNotCalled",
            "toolArgs",
            "approvalRequired",
            "answerContains",
            "answerNotContains",
            "answerMatches",
            "answerMaxLength",
            "noError",
            "maxIterations",
            "maxLatencyMs",
            "rubric");
    static final List<String> TOOL_ARGS_KEYS = List.of("tool", "args", "argsMatch");

    private SuiteReader() {}

    /**
     * @throws ConfigException "{@code file:line: what is wrong}" when the suite is not valid
     */
    public static EvalSuite read(Path file) {
        return read(ConfigFile.read(file));
    }

    /** A suite from YAML text; {@code source} names it in messages. */
    public static EvalSuite parse(String yaml, String source) {
        return read(ConfigFile.parse(yaml, source));
    }

    /** A suite already read (a file, or a resource shipped on the class path). */
    static EvalSuite read(ConfigFile file) {
        try {
            return suite(file);
        } catch (IllegalArgumentException e) {
            throw file.explain(e).orElseGet(() -> new ConfigException(file.source() + ": " + e.getMessage(), e));
        }
    }

    private static EvalSuite suite(ConfigFile file) {
        JsonNode root = file.root();
        if (root.isMissingNode() || root.isNull()) throw new ConfigException(file.source() + ": the suite is empty");
        ConfigSection top = ConfigSection.of(root, "", SUITE_KEYS);
        String agent = required(top, "agent");
        String name = top.text("suite", fileName(file.source()));
        List<String> roles = top.strings("roles");
        JsonNode list = top.get("scenarios");
        if (!list.isArray() || list.isEmpty())
            throw list.isMissingNode()
                    ? new ConfigException(file.source() + ": the suite has no 'scenarios'")
                    : top.invalid("scenarios", "must be a non-empty list of scenarios");
        List<Scenario> scenarios = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            Scenario scenario = scenario(file, list, i);
            if (!names.add(scenario.name()))
                throw ConfigProblem.at(list, Integer.toString(i), "two scenarios are named '" + scenario.name() + "'");
            scenarios.add(scenario);
        }
        return new EvalSuite(
                name,
                file.source(),
                agent,
                top.text("description"),
                roles.isEmpty() ? List.of("student") : roles,
                scenarios);
    }

    private static Scenario scenario(ConfigFile file, JsonNode list, int index) {
        JsonNode node = list.get(index);
        if (!node.isObject())
            throw ConfigProblem.at(list, Integer.toString(index), "scenarios[" + index + "] must be a mapping");
        ConfigSection probe = ConfigSection.part(node, "scenarios[" + index + "]", SCENARIO_KEYS);
        String name = required(probe, "name");
        ConfigSection s = ConfigSection.of(node, "scenario '" + name + "'", SCENARIO_KEYS);
        BigDecimal maxCost = s.decimal("maxCostUsd");
        if (maxCost != null && maxCost.signum() < 0) throw s.invalid("maxCostUsd", "must be >= 0");
        List<ScenarioTurn> turns = new ArrayList<>();
        if (s.has("turns")) {
            if (s.has("user") || s.has("expect"))
                throw s.invalid("turns", "cannot be given with 'user' or 'expect' (use one turn or a list of turns)");
            JsonNode items = s.get("turns");
            if (!items.isArray() || items.isEmpty()) throw s.invalid("turns", "must be a non-empty list of turns");
            for (int t = 0; t < items.size(); t++) {
                JsonNode item = items.get(t);
                String where = "scenario '" + name + "' turn " + (t + 1);
                if (!item.isObject()) throw ConfigProblem.at(items, Integer.toString(t), where + " must be a mapping");
                ConfigSection turn = ConfigSection.of(item, where, TURN_KEYS);
                turns.add(turn(file, turn, where));
            }
        } else {
            if (!s.has("user"))
                throw ConfigProblem.of(
                        s.node(), s.qualified("user") + " is missing: give 'user' (one turn) or 'turns'");
            turns.add(turn(file, s, "scenario '" + name + "'"));
        }
        return new Scenario(name, s.text("category"), turns, maxCost, line(file, node));
    }

    private static ScenarioTurn turn(ConfigFile file, ConfigSection turn, String where) {
        String user = required(turn, "user");
        ConfigSection expect = turn.section("expect", EXPECT_KEYS);
        List<Expectation> expectations = new ArrayList<>();
        for (String tool : expect.strings("toolsCalled")) expectations.add(new Expectation.ToolCalled(tool));
        for (String tool : expect.strings("toolsNotCalled")) expectations.add(new Expectation.ToolNotCalled(tool));
        expectations.addAll(toolArgs(expect));
        for (String tool : expect.strings("approvalRequired")) expectations.add(new Expectation.ApprovalRequired(tool));
        for (String text : expect.strings("answerContains")) expectations.add(new Expectation.AnswerContains(text));
        for (String text : expect.strings("answerNotContains"))
            expectations.add(new Expectation.AnswerNotContains(text));
        JsonNode regexes = expect.get("answerMatches");
        List<String> patterns = expect.strings("answerMatches");
        for (int i = 0; i < patterns.size(); i++) {
            JsonNode parent = regexes.isArray() ? regexes : expect.node();
            String key = regexes.isArray() ? Integer.toString(i) : "answerMatches";
            expectations.add(new Expectation.AnswerMatches(
                    regex(parent, key, expect.qualified("answerMatches"), patterns.get(i))));
        }
        Integer maxLength = expect.optionalInteger("answerMaxLength", 1);
        if (maxLength != null) expectations.add(new Expectation.AnswerMaxLength(maxLength));
        // a turn that fails is a failed turn unless the suite says an error is what it expects
        if (expect.bool("noError", true)) expectations.add(new Expectation.NoError());
        Integer maxIterations = expect.optionalInteger("maxIterations", 1);
        if (maxIterations != null) expectations.add(new Expectation.MaxIterations(maxIterations));
        Integer maxLatency = expect.optionalInteger("maxLatencyMs", 1);
        if (maxLatency != null) expectations.add(new Expectation.MaxLatency(maxLatency));
        String rubric = expect.text("rubric");
        if (rubric != null) {
            if (rubric.isBlank()) throw expect.invalid("rubric", "must say what a good answer does");
            expectations.add(new Expectation.Rubric(rubric.strip()));
        }
        return new ScenarioTurn(user, expectations, line(file, turn.node()));
    }

    private static List<Expectation> toolArgs(ConfigSection expect) {
        JsonNode list = expect.get("toolArgs");
        if (list.isMissingNode() || list.isNull()) return List.of();
        if (!list.isArray()) throw expect.invalid("toolArgs", "must be a list of {tool, args, argsMatch}");
        List<Expectation> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String where = expect.qualified("toolArgs") + "[" + i + "]";
            JsonNode item = list.get(i);
            if (!item.isObject()) throw ConfigProblem.at(list, Integer.toString(i), where + " must be a mapping");
            ConfigSection call = ConfigSection.of(item, where, TOOL_ARGS_KEYS);
            String tool = required(call, "tool");
            JsonNode args = call.get("args");
            if (!args.isMissingNode() && !args.isObject())
                throw call.invalid("args", "must be a mapping of argument names to expected values");
            ConfigSection matching = call.section("argsMatch", names(call.get("argsMatch")));
            Map<String, Pattern> patterns = new LinkedHashMap<>();
            for (String key : matching.keys()) {
                String text = matching.text(key);
                if (text == null) throw matching.invalid(key, "must be a regular expression");
                patterns.put(key, regex(matching.node(), key, matching.qualified(key), text));
            }
            if (args.isMissingNode() && patterns.isEmpty())
                throw ConfigProblem.at(
                        list, Integer.toString(i), where + " needs 'args' or 'argsMatch' (or use toolsCalled)");
            out.add(new Expectation.ToolCalledWith(
                    tool, new ArgumentMatch(args.isMissingNode() ? MissingNode.getInstance() : args, patterns)));
        }
        return out;
    }

    private static List<String> names(JsonNode mapping) {
        List<String> names = new ArrayList<>();
        if (mapping.isObject()) mapping.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static Pattern regex(JsonNode parent, String key, String name, String text) {
        try {
            return Pattern.compile(text, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
        } catch (PatternSyntaxException e) {
            throw ConfigProblem.at(parent, key, name + " is not a valid regular expression: " + e.getDescription());
        }
    }

    private static String required(ConfigSection section, String key) {
        JsonNode value = section.get(key);
        if (value.isMissingNode() || value.isNull()) {
            if (section.node().isMissingNode())
                throw new IllegalArgumentException(section.qualified(key) + " is missing");
            throw ConfigProblem.of(section.node(), section.qualified(key) + " is missing");
        }
        if (!value.isValueNode() || value.asText().isBlank()) throw section.invalid(key, "must be a non-empty text");
        return value.asText().strip();
    }

    private static int line(ConfigFile file, JsonNode node) {
        return file.line(ConfigProblem.of(node, "")).orElse(0);
    }

    private static String fileName(String source) {
        String name = Path.of(source).getFileName().toString();
        return name.replaceFirst("\\.ya?ml$", "");
    }
}
