package dev.baton.modules.topic;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.AgentConstraints;
import dev.baton.core.hook.HookContext;
import dev.baton.core.hook.HookResult;
import dev.baton.core.hook.Module;
import dev.baton.core.hook.ModuleDescriptor;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The {@code topic-guard} module: refuses (blocks, before the model is called) a user message that matches one of
 * the agent's {@code constraints.deny} patterns or, when the agent has a {@code constraints.topics} allow-list,
 * mentions none of its topics' keywords.
 *
 * <p>This is a cheap keyword guard, not a classifier: it cannot tell "how do I cheat at algebra" from "what is
 * cheating in algebra", misses topics phrased without any configured keyword, and a determined user can pad an
 * off-topic request with a keyword. Short messages (greetings, "thanks", "yes") and short follow-ups to an
 * on-topic message pass the allow-list check so a conversation can flow; deny patterns always apply. Give topics
 * generous keyword lists, and put a real classifier behind a webhook module where it matters.
 */
public final class TopicGuardModule implements Module {

    /** The id agents name the module by. */
    public static final String ID = "topic-guard";

    static final int DEFAULT_PRIORITY = 10;
    static final String EXTRACTION_TYPE = "topic_blocked";

    /**
     * How the guard decides.
     *
     * @param keywords extra keywords per topic name, added to what the agent lists
     * @param minWords messages with fewer words skip the allow-list check (0: check all)
     * @param followUpWords a message with at most this many words passes when the previous user message was on
     *     topic (0: never)
     * @param response the refusal; {@code {topics}} is replaced by the topic list
     */
    record Settings(Map<String, List<String>> keywords, int minWords, int followUpWords, String response) {
        static final String DEFAULT_RESPONSE =
                "I'm sorry, I can only help with {topics}. Could you ask me something about that?";
        static final String DEFAULT_DENY_RESPONSE = "I'm sorry, I can't help with that here.";

        Settings {
            keywords = Map.copyOf(keywords);
            if (minWords < 0 || followUpWords < 0) {
                throw new IllegalArgumentException("word counts must be >= 0");
            }
            response = response == null || response.isBlank() ? DEFAULT_RESPONSE : response;
        }
    }

    private record Cached(AgentConstraints constraints, TopicPolicy policy) {}

    private final ModuleDescriptor descriptor;
    private final Settings settings;
    private final Map<String, Cached> policies = new ConcurrentHashMap<>();

    TopicGuardModule(ModuleDescriptor descriptor, Settings settings) {
        this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    public ModuleDescriptor descriptor() {
        return descriptor;
    }

    @Override
    public HookResult handle(HookContext context) {
        String message = context.conversation().currentMessage();
        if (message == null || message.isBlank()) {
            return HookResult.proceed();
        }
        TopicPolicy policy = policyFor(context.agent());
        Optional<Pattern> denied = policy.denied(message);
        if (denied.isPresent()) {
            String response = policy.topics().isEmpty()
                    ? Settings.DEFAULT_DENY_RESPONSE
                    : Settings.DEFAULT_DENY_RESPONSE + " " + refusal(policy);
            return block("denied topic", response, "deny:" + denied.get().pattern(), "deny");
        }
        if (policy.onTopic(message) || isShort(message) || isFollowUp(policy, context, message)) {
            return HookResult.proceed();
        }
        return block("off topic", refusal(policy), "off_topic", "off_topic");
    }

    private TopicPolicy policyFor(HookContext.Agent agent) {
        AgentConstraints constraints = agent.constraints();
        Cached cached = policies.get(agent.id());
        if (cached == null || !cached.constraints().equals(constraints)) {
            cached = new Cached(constraints, TopicPolicy.from(constraints, settings.keywords()));
            policies.put(agent.id(), cached);
        }
        return cached.policy();
    }

    private boolean isShort(String message) {
        return words(message) < settings.minWords();
    }

    private boolean isFollowUp(TopicPolicy policy, HookContext context, String message) {
        if (settings.followUpWords() == 0 || words(message) > settings.followUpWords()) {
            return false;
        }
        List<HookContext.HistoryMessage> history = context.conversation().history();
        for (int i = history.size() - 1; i >= 0; i--) {
            if (history.get(i).role().equals("user")) {
                return policy.onTopic(history.get(i).content());
            }
        }
        return false;
    }

    private String refusal(TopicPolicy policy) {
        return settings.response().replace("{topics}", list(policy.topicNames()));
    }

    private static HookResult block(String reason, String response, String pattern, String kind) {
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("kind", kind);
        return HookResult.block(reason, response, List.of(pattern)).withExtraction(EXTRACTION_TYPE, data);
    }

    /** "a", "a and b", "a, b and c". */
    static String list(List<String> names) {
        if (names.isEmpty()) {
            return "the topics this assistant is for";
        }
        if (names.size() == 1) {
            return names.getFirst();
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.getLast();
    }

    private static int words(String text) {
        String t = text.strip();
        return t.isEmpty() ? 0 : t.split("\\s+").length;
    }
}
