package dev.baton.simulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the simulator answers: ordered rules, the first that matches answers; when none does, the fallback
 * text. Immutable and safe to share between simulators.
 *
 * <pre>{@code
 * var script = SimulatorScript.builder()
 *         .whenUserMatches("weather in (\\w+)", Reply.toolCall("get_weather", "{\"city\":\"$1\"}"))
 *         .whenToolResult("get_weather", Reply.text("It is sunny."))
 *         .fallback("I only talk about the weather.")
 *         .build();
 * }</pre>
 */
public final class SimulatorScript {

    /** The reply text when no rule matches and no fallback was set. */
    public static final String DEFAULT_FALLBACK = "This is the Baton LLM simulator. No rule of its script matched.";

    /**
     * The answer chosen for one request.
     *
     * @param ruleName the rule that answered, or "fallback"
     */
    public record Answer(String ruleName, Reply reply, Pacing pacing) {
        public Answer {
            Objects.requireNonNull(ruleName, "ruleName");
            Objects.requireNonNull(reply, "reply");
            Objects.requireNonNull(pacing, "pacing");
        }
    }

    private final List<Rule> rules;
    private final Pacing pacing;
    private final String fallback;

    private SimulatorScript(List<Rule> rules, Pacing pacing, String fallback) {
        this.rules = List.copyOf(rules);
        this.pacing = Objects.requireNonNull(pacing, "pacing");
        this.fallback = Objects.requireNonNull(fallback, "fallback");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A script that answers every request with the same text. */
    public static SimulatorScript replyingWith(String text) {
        return builder().fallback(text).build();
    }

    /** A script made of the given rules, instant pacing and the default fallback. */
    public static SimulatorScript of(Rule... rules) {
        var builder = builder();
        for (var rule : rules) {
            builder.rule(rule);
        }
        return builder.build();
    }

    /**
     * Reads a script from YAML:
     *
     * <pre>{@code
     * pacing: {firstTokenLatency: 200ms, tokensPerSecond: 40, chunkSize: 2}   # optional
     * fallback: I only know about the weather.                                # optional
     * rules:
     *   - name: weather                                   # optional
     *     when: {userMatches: "weather in (\\w+)"}        # or userContains, toolResult (+ contentMatches), always
     *     reply: {toolCalls: [{name: get_weather, arguments: {city: "$1"}}]}
     *   - when: {toolResult: get_weather, contentMatches: '"sky":"(\\w+)"'}
     *     reply: {text: "The sky is $1.", usage: {promptTokens: 10, completionTokens: 5, cachedPromptTokens: 4}}
     *     pacing: {tokensPerSecond: 5}                    # merged onto the script's pacing
     *   - when: always
     *     reply: {fault: {kind: disconnect_after, chunks: 2}, text: streamed before the drop}
     * }</pre>
     *
     * Fault kinds: {@code http_500}, {@code http_503}, {@code rate_limited} ({@code retryAfter: 3s}, whole
     * seconds), {@code hang}, {@code disconnect_after} ({@code chunks}), {@code malformed_chunk}
     * ({@code afterChunks}), {@code http_error} ({@code status, type, code, message}), {@code overloaded}
     * (Anthropic's 529), {@code overloaded_mid_stream} ({@code afterChunks}), {@code stream_error}
     * ({@code afterChunks, type, message}). Durations take a unit ({@code 250ms}, {@code 2s}, {@code 1m}) or are
     * ISO-8601 ({@code PT2S}); a bare number is an error. Unknown keys are errors.
     *
     * @throws IllegalArgumentException when the YAML does not describe a valid script
     */
    public static SimulatorScript fromYaml(InputStream yaml) {
        try {
            return ScriptYaml.parse(yaml);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read simulator script", e);
        }
    }

    public static SimulatorScript fromYaml(Path file) {
        try (var in = Files.newInputStream(file)) {
            return fromYaml(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read simulator script " + file, e);
        }
    }

    /** The answer to a request: the first matching rule's, else the fallback text. */
    public Answer answer(RecordedRequest request) {
        for (var rule : rules) {
            var reply = rule.respond(request);
            if (reply.isPresent()) {
                return new Answer(rule.name(), reply.get(), rule.pacing() == null ? pacing : rule.pacing());
            }
        }
        return new Answer("fallback", Reply.text(fallback), pacing);
    }

    public List<Rule> rules() {
        return rules;
    }

    public Pacing pacing() {
        return pacing;
    }

    public String fallback() {
        return fallback;
    }

    /** Collects rules in order; the knobs apply to every rule without its own pacing. */
    public static final class Builder {
        private final List<Rule> rules = new ArrayList<>();
        private Pacing pacing = Pacing.INSTANT;
        private String fallback = DEFAULT_FALLBACK;

        private Builder() {}

        public Builder rule(Rule rule) {
            rules.add(Objects.requireNonNull(rule, "rule"));
            return this;
        }

        public Builder when(Condition condition, Reply reply) {
            return rule(Rule.when(condition, reply));
        }

        /** The last message is the user's and contains {@code text}, ignoring case. */
        public Builder whenUserSays(String text, Reply reply) {
            return when(new Condition.UserContains(text), reply);
        }

        /** The last message is the user's and matches {@code regex}; groups usable as {@code $1}. */
        public Builder whenUserMatches(String regex, Reply reply) {
            return when(Condition.UserMatches.of(regex), reply);
        }

        /** The last message is a result of the named tool (any tool when null). */
        public Builder whenToolResult(String toolName, Reply reply) {
            return when(Condition.ToolResult.of(toolName), reply);
        }

        public Builder always(Reply reply) {
            return when(new Condition.Always(), reply);
        }

        public Builder responder(String name, Responder responder) {
            return rule(Rule.of(name, responder));
        }

        public Builder pacing(Pacing scriptPacing) {
            this.pacing = Objects.requireNonNull(scriptPacing, "pacing");
            return this;
        }

        public Builder firstTokenLatency(Duration latency) {
            return pacing(pacing.withFirstTokenLatency(latency));
        }

        public Builder tokensPerSecond(double tokensPerSecond) {
            return pacing(pacing.withTokensPerSecond(tokensPerSecond));
        }

        public Builder chunkSize(int words) {
            return pacing(pacing.withChunkSize(words));
        }

        public Builder fallback(String text) {
            this.fallback = Objects.requireNonNull(text, "fallback");
            return this;
        }

        public SimulatorScript build() {
            return new SimulatorScript(rules, pacing, fallback);
        }
    }
}
