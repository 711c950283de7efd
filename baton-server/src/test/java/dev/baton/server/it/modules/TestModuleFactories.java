package dev.baton.server.it.modules;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.hook.Hook;
import dev.baton.core.hook.HookContext;
import dev.baton.core.hook.HookResult;
import dev.baton.core.hook.Module;
import dev.baton.core.hook.ModuleDescriptor;
import dev.baton.core.hook.ModuleFactory;
import dev.baton.core.hook.OutputFilter;
import dev.baton.core.hook.RedactingOutputFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Modules the integration tests configure on their agents, registered through META-INF/services exactly as a
 * team's own jar would register its modules.
 */
public final class TestModuleFactories {
    private TestModuleFactories() {}

    /** A module running {@code body} on its hooks, with an optional output filter. */
    record Simple(ModuleDescriptor descriptor, Function<HookContext, HookResult> body, boolean filtersCards)
            implements Module {
        @Override
        public HookResult handle(HookContext context) {
            return body.apply(context);
        }

        @Override
        public OutputFilter outputFilter(HookContext context) {
            return filtersCards ? cardFilter() : OutputFilter.NONE;
        }
    }

    /** {@code it-block-word}: blocks a message containing {@code config.word}, answering {@code config.response}. */
    public static final class BlockWord implements ModuleFactory {
        @Override
        public String id() {
            return "it-block-word";
        }

        @Override
        public Module create(JsonNode config) {
            String word = config.path("word").asText();
            String response = config.path("response").asText();
            return new Simple(
                    new ModuleDescriptor(id(), 8, null, false, Set.of(Hook.BEFORE_AI), null),
                    c -> c.conversation().currentMessage().contains(word)
                            ? HookResult.block("forbidden word", response, List.of("word:" + word))
                            : HookResult.proceed(),
                    false);
        }
    }

    /** {@code it-redact}: replaces {@code config.secret} in the user message with [REDACTED], with an extraction. */
    public static final class Redact implements ModuleFactory {
        @Override
        public String id() {
            return "it-redact";
        }

        @Override
        public Module create(JsonNode config) {
            String secret = config.path("secret").asText();
            return new Simple(
                    new ModuleDescriptor(id(), 20, null, false, Set.of(Hook.BEFORE_AI), null),
                    c -> {
                        String m = c.conversation().currentMessage();
                        if (!m.contains(secret)) return HookResult.proceed();
                        return HookResult.replaceUserMessage(m.replace(secret, "[REDACTED]"))
                                .withAudit("secret redacted", List.of("secret"))
                                .withExtraction(
                                        "secret_detected",
                                        JsonNodeFactory.instance.objectNode().put("location", "user_message"));
                    },
                    false);
        }
    }

    /** {@code it-guidance}: adds {@code config.text} to the system prompt's Additional Guidance. */
    public static final class Guidance implements ModuleFactory {
        @Override
        public String id() {
            return "it-guidance";
        }

        @Override
        public Module create(JsonNode config) {
            String text = config.path("text").asText();
            return new Simple(
                    new ModuleDescriptor(id(), 60, null, false, Set.of(Hook.BEFORE_AI), null),
                    c -> HookResult.guidance(text),
                    false);
        }
    }

    /** {@code it-replace-answer}: after_ai, replaces the model's answer with {@code config.text}. */
    public static final class ReplaceAnswer implements ModuleFactory {
        @Override
        public String id() {
            return "it-replace-answer";
        }

        @Override
        public Module create(JsonNode config) {
            String text = config.path("text").asText();
            return new Simple(
                    new ModuleDescriptor(id(), 30, null, false, Set.of(Hook.AFTER_AI), null),
                    c -> HookResult.replaceResponse(text).withAudit("answer replaced", List.of()),
                    false);
        }
    }

    /** {@code it-card-filter}: an output filter replacing card-like numbers in the streamed answer with [CARD]. */
    public static final class CardFilter implements ModuleFactory {
        @Override
        public String id() {
            return "it-card-filter";
        }

        @Override
        public Module create(JsonNode config) {
            return new Simple(
                    new ModuleDescriptor(id(), 5, null, false, Set.of(), null), c -> HookResult.proceed(), true);
        }
    }

    /** {@code it-crash}: throws on before_ai (fail-open unless configured {@code failClosed: true}). */
    public static final class Crash implements ModuleFactory {
        @Override
        public String id() {
            return "it-crash";
        }

        @Override
        public Module create(JsonNode config) {
            return new Simple(
                    new ModuleDescriptor(id(), 3, null, false, Set.of(Hook.BEFORE_AI), null),
                    c -> {
                        throw new IllegalStateException("the module's backend is down");
                    },
                    false);
        }
    }

    private static final Pattern CARD = Pattern.compile("\\b\\d(?:[ -]?\\d){12,18}\\b");

    static OutputFilter cardFilter() {
        return new RedactingOutputFilter(
                text -> {
                    List<RedactingOutputFilter.Redaction> found = new ArrayList<>();
                    Matcher m = CARD.matcher(text);
                    while (m.find())
                        found.add(new RedactingOutputFilter.Redaction(m.start(), m.end(), "[CARD]", "card"));
                    return found;
                },
                48,
                patterns -> HookResult.proceed()
                        .withAudit("card redacted from the answer", patterns)
                        .withExtraction(
                                "card_detected",
                                JsonNodeFactory.instance.objectNode().put("location", "response")));
    }

    /** {@code it-session-log}: records each session:start and session:end it sees as an extraction. */
    public static final class SessionLog implements ModuleFactory {
        @Override
        public String id() {
            return "it-session-log";
        }

        @Override
        public Module create(JsonNode config) {
            return new Simple(
                    new ModuleDescriptor(id(), 90, null, false, Set.of(Hook.SESSION_START, Hook.SESSION_END), null),
                    c -> HookResult.proceed()
                            .withExtraction(
                                    "session_event",
                                    JsonNodeFactory.instance
                                            .objectNode()
                                            .put("hook", c.request().hook().wireName())
                                            .put("userId", c.user().id())
                                            .put("endReason", c.session().endReason())),
                    false);
        }
    }
}
