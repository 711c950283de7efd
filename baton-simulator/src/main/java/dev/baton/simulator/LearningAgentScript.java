package dev.baton.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bundled script for the learning agent: it drives searchTopics, detectGranularity, getUserProgress,
 * generateContent, confirmWithUser and storeDecision the way the learning design asks, for a handful of phrasings
 * (see {@link LearningIntent}):
 *
 * <ul>
 *   <li>"I want to learn quantum physics", "physics please", "quantam fisics" → detectGranularity → searchTopics →
 *       confirmWithUser("“Quantum physics” — is that right?")
 *   <li>"yes", "it is", "sounds great" → storeDecision(topic_confirmed) → generateContent → "Thank you. I'm putting
 *       that together now."
 *   <li>"no, I meant physics", "chemistry instead" → start again with the new topic
 *   <li>"learn something new" → storeDecision(restart) → "What would you like to learn?"
 *   <li>"how am I doing" → getUserProgress; sensitive topics answered with care; offensive requests declined
 * </ul>
 *
 * It never invents a topic: the name it confirms is the one the library returned, and the topic it prepares is the
 * one quoted in its own last question.
 */
public final class LearningAgentScript {

    public static final String HELP = """
            I can help you find something to learn. Tell me a subject or topic, for example "quantum physics" or \
            "leadership". (Simulated model — set OPENAI_API_KEY to use a real one.)""";

    private static final Pattern QUOTED = Pattern.compile("“([^”]+)”");
    private static final List<String> RESTART_QUESTIONS = List.of(
            "What would you like to learn?",
            "Of course. What would you like to learn instead?",
            "Certainly. What shall we look at?");

    private LearningAgentScript() {}

    /** The script: answers requests that offer the learning agent's tools. */
    public static SimulatorScript create() {
        return SimulatorScript.builder()
                .responder("learning-agent", request -> Optional.of(respond(request)))
                .fallback(HELP)
                .build();
    }

    static Reply respond(RecordedRequest request) {
        LearningIntent intent = LearningIntent.parse(request.lastUserMessage());
        var toolResult = request.lastToolResult();
        if (toolResult.isPresent()) return afterTool(request, intent, toolResult.get());
        return switch (intent) {
            case LearningIntent.Learn learn -> call(request, "detectGranularity", json().put("input", learn.topic()));
            case LearningIntent.Confirm confirm ->
                pendingTopic(request)
                        .map(topic -> call(
                                request,
                                "storeDecision",
                                json().put("decision", "topic_confirmed").set("data", json().put("topic", topic))))
                        .orElse(Reply.text(RESTART_QUESTIONS.getFirst()));
            case LearningIntent.Reject reject ->
                call(request, "storeDecision", json().put("decision", "topic_rejected"));
            case LearningIntent.Restart restart -> call(request, "storeDecision", json().put("decision", "restart"));
            case LearningIntent.Progress progress -> call(request, "getUserProgress", json());
            case LearningIntent.Sensitive sensitive ->
                call(request, "searchTopics", json().put("query", sensitive.topic()));
            case LearningIntent.Offensive offensive ->
                Reply.text(
                        "I'd rather not help with that. If there's something you'd like to learn, I'm glad to help.");
            case LearningIntent.Unknown unknown -> Reply.text(HELP);
        };
    }

    private static Reply afterTool(RecordedRequest request, LearningIntent intent, ToolResultMessage result) {
        JsonNode json = ScriptJson.parse(result.content());
        var error = ScriptJson.error(json);
        if (error.isPresent()) return Reply.text("I'm sorry, something went wrong there: " + error.get() + ".");
        return switch (result.toolName()) {
            case "detectGranularity" -> afterGranularity(request, intent, json);
            case "searchTopics" -> afterSearch(request, intent, json);
            case "confirmWithUser" -> Reply.text(json.path("question").asText());
            case "storeDecision" -> afterDecision(request, json);
            case "generateContent" -> Reply.text("Thank you. I'm putting that together now.");
            case "getUserProgress" -> Reply.text(progress(json));
            default -> Reply.text("Done.");
        };
    }

    private static Reply afterGranularity(RecordedRequest request, LearningIntent intent, JsonNode verdict) {
        String asked = intent instanceof LearningIntent.Learn learn ? learn.topic() : request.lastUserMessage();
        JsonNode match = verdict.path("match");
        if (!verdict.path("inLibrary").asBoolean()) return call(request, "searchTopics", json().put("query", asked));
        String name = match.path("name").asText();
        return switch (verdict.path("granularity").asText()) {
            case "subject" ->
                confirm(
                        request,
                        "“" + name + "” is a broad subject. Is there a part of it you'd like to"
                                + " start with, or shall I prepare an introduction to “" + name + "”?");
            case "module" -> {
                JsonNode path = match.path("path");
                String topic = path.size() >= 2 ? path.get(path.size() - 2).asText() : name;
                yield confirm(
                        request, "“" + name + "” is part of “" + topic + "”. Shall we start with “" + topic + "”?");
            }
            default -> call(request, "searchTopics", json().put("query", asked));
        };
    }

    private static Reply afterSearch(RecordedRequest request, LearningIntent intent, JsonNode found) {
        JsonNode best = found.path("exactMatch").isObject()
                ? found.path("exactMatch")
                : found.path("fuzzyMatches").path(0);
        if (intent instanceof LearningIntent.Sensitive) {
            String library = best.isObject()
                    ? " Our library covers it under “" + best.path("name").asText() + "”."
                    : "";
            return Reply.text("This is an important subject, and I'll treat it with care." + library
                    + " If you or someone you know may be at risk, please talk to someone you trust or a local"
                    + " helpline; they can help straight away. Would you like to learn about it in a factual,"
                    + " supportive way?");
        }
        String asked = intent instanceof LearningIntent.Learn learn ? learn.topic() : request.lastUserMessage();
        if (!best.isObject()) {
            return confirm(
                    request,
                    "I don't have “" + asked + "” in the library yet. Shall I prepare materials on “" + asked + "”?");
        }
        String name = best.path("name").asText();
        return found.path("exactMatch").isObject()
                ? confirm(request, "“" + name + "” — is that right?")
                : confirm(request, "Did you mean “" + name + "”?");
    }

    private static Reply afterDecision(RecordedRequest request, JsonNode decided) {
        return switch (decided.path("decision").asText()) {
            case "topic_confirmed" ->
                call(
                        request,
                        "generateContent",
                        json().put("topic", decided.path("currentTopic").asText()));
            case "topic_rejected" -> Reply.text("Understood. What would you like to learn instead?");
            default ->
                Reply.text(RESTART_QUESTIONS.get(
                        Math.floorMod(request.lastUserMessage().hashCode(), RESTART_QUESTIONS.size())));
        };
    }

    private static String progress(JsonNode p) {
        StringBuilder text = new StringBuilder();
        String topic = p.path("currentTopic").asText(null);
        text.append(topic == null ? "You haven't settled on a topic yet." : "You're working on " + topic + ".");
        // newest first: a topic prepared twice is told once, as its newest job stands
        Set<String> told = new HashSet<>();
        for (JsonNode job : p.path("content")) {
            if (!told.add(job.path("topic").asText().toLowerCase(Locale.ROOT))) continue;
            String status = switch (job.path("status").asText()) {
                case "completed" -> "is ready";
                case "failed" -> "could not be prepared";
                default -> "is being prepared";
            };
            text.append(" The material on ")
                    .append(job.path("topic").asText())
                    .append(' ')
                    .append(status)
                    .append('.');
        }
        for (JsonNode course : p.path("enrollments")) {
            text.append(" ")
                    .append(course.path("title").asText())
                    .append(": ")
                    .append(course.path("progressPercent").asInt())
                    .append("% done.");
        }
        return text.toString();
    }

    /** The topic of the question the agent asked last: the last “quoted” name in its previous answer. */
    private static Optional<String> pendingTopic(RecordedRequest request) {
        Matcher quoted = QUOTED.matcher(ScriptJson.previousAnswer(request));
        String last = null;
        while (quoted.find()) last = quoted.group(1);
        if (last == null) {
            // the memory module put the pending question into the prompt: a new conversation still knows it
            Matcher remembered = QUOTED.matcher(ScriptJson.system(request));
            while (remembered.find()) last = remembered.group(1);
        }
        return Optional.ofNullable(last);
    }

    private static Reply confirm(RecordedRequest request, String question) {
        return call(request, "confirmWithUser", json().put("question", question));
    }

    private static Reply call(RecordedRequest request, String tool, JsonNode arguments) {
        return ScriptJson.call(request, tool, arguments);
    }

    private static ObjectNode json() {
        return ChatWire.JSON.createObjectNode();
    }
}
