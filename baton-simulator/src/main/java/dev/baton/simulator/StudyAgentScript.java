package dev.baton.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bundled script for the study agent (the notes domain's "study" companion): it guides rather than answers, and
 * drives its tools for a handful of phrasings:
 *
 * <ul>
 *   <li>"remember that …", "note that …", "save a note: …" → create_note → "Saved your note “…”."
 *   <li>"what is my assignment", "what does the assignment ask" → get_assignment_info → its title and instructions
 *   <li>"what did we say about X", "like last time" → search_prior_sessions → what was found, or that nothing was
 *   <li>"write my essay", "do my homework" → declines to write graded work and offers to guide
 *   <li>"help me understand X", "explain X", "what is X", "I'm studying X" → a guiding question about X
 *   <li>anything else → what the companion can do
 * </ul>
 */
public final class StudyAgentScript {

    public static final String HELP = """
            I'm your study companion. Tell me what you're working on and I'll help you understand it step by step, \
            or ask me to note something down for later. (Simulated model — set OPENAI_API_KEY to use a real one.)""";

    /** The opening sentence of the study agent's system prompt (agents/study.yaml in baton-notes). */
    static final String STUDY_PROMPT = "You are a patient study companion.";

    private static final Pattern NOTE = Pattern.compile(
            "^(?:please\\s+)?(?:remember|note|save a note|make a note|write down)\\b(?:\\s+that)?[:,]?\\s*(.+)$",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern ASSIGNMENT = Pattern.compile("\\bassignment\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern PRIOR = Pattern.compile(
            "(?:what did we (?:say|discuss|talk about)|last time|we discussed|earlier session|previous session)"
                    + "(?:\\s+(?:about|on))?\\s*(.*)$",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern GRADED_WORK = Pattern.compile(
            "\\b(?:write|do|finish|solve)\\s+(?:my|the)\\s+(?:essay|homework|assignment|exam|test|paper)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern SUBJECT = Pattern.compile(
            "^(?:can you\\s+|could you\\s+|please\\s+)?(?:help me (?:understand|with|learn)|explain|what is|what are"
                    + "|how does|how do|why does|why do|i'?m (?:studying|learning|working on)|i am (?:studying|learning"
                    + "|working on)|i don'?t understand)\\s+(.+?)[?.!]*$",
            Pattern.CASE_INSENSITIVE);

    private StudyAgentScript() {}

    /** The script: answers requests that offer the study agent's tools. */
    public static SimulatorScript create() {
        return SimulatorScript.builder()
                .responder("study-agent", request -> Optional.of(respond(request)))
                .fallback(HELP)
                .build();
    }

    /**
     * A request of the study agent: it offers the study tools (a user without the notes permissions is offered
     * fewer), or its system prompt is the study companion's.
     */
    static boolean isStudyRequest(RecordedRequest request) {
        var tools = request.toolNames();
        return tools.contains("create_note")
                || tools.contains("search_prior_sessions") && !tools.contains("add_task")
                || ScriptJson.system(request).contains(STUDY_PROMPT);
    }

    static Reply respond(RecordedRequest request) {
        var toolResult = request.lastToolResult();
        if (toolResult.isPresent()) return afterTool(toolResult.get());
        String said = request.lastUserMessage().strip();
        Matcher note = NOTE.matcher(said);
        if (note.matches()) {
            String content = note.group(1).strip();
            return ScriptJson.call(
                    request, "create_note", json().put("title", title(content)).put("content", content));
        }
        if (GRADED_WORK.matcher(said).find()) {
            return Reply.text("I can't write graded work for you, but I can help you do it yourself. What have you"
                    + " got so far, and where are you stuck?");
        }
        if (ASSIGNMENT.matcher(said).find()) return ScriptJson.call(request, "get_assignment_info", json());
        Matcher prior = PRIOR.matcher(said);
        if (prior.find()) {
            String query = prior.group(1).replaceAll("[?.!]+$", "").strip();
            return ScriptJson.call(
                    request, "search_prior_sessions", json().put("query", query.isEmpty() ? said : query));
        }
        Matcher subject = SUBJECT.matcher(said);
        if (subject.matches()) {
            String topic = subject.group(1).strip();
            return Reply.text("Let's work through " + topic + " together. To start: what do you already know about "
                    + topic + "? Tell me in a sentence or two, and we'll build on it step by step.");
        }
        return Reply.text(HELP);
    }

    private static Reply afterTool(ToolResultMessage result) {
        JsonNode json = ScriptJson.parse(result.content());
        var error = ScriptJson.error(json);
        if (error.isPresent()) return Reply.text("I couldn't do that: " + error.get() + ".");
        return switch (result.toolName()) {
            case "create_note" ->
                Reply.text("Saved your note “" + json.at("/note/title").asText() + "”.");
            case "get_assignment_info" -> {
                JsonNode a = json.path("assignment");
                String instructions = a.path("instructions").asText("");
                yield Reply.text("Your assignment is “"
                        + a.path("title").asText(a.path("id").asText()) + "”."
                        + (instructions.isBlank() ? "" : " It asks: " + instructions)
                        + " Which part would you like to start with?");
            }
            case "search_prior_sessions" -> {
                JsonNode first = json.path("results").path(0);
                yield first.isObject()
                        ? Reply.text("Here's what we said before: “"
                                + first.path("snippet").asText() + "”. Shall we build on that?")
                        : Reply.text("I couldn't find that in our earlier sessions. What do you remember of it?");
            }
            default -> Reply.text("Done. What would you like to look at next?");
        };
    }

    /** A note's title: its first few words. */
    private static String title(String content) {
        String[] words = content.split("\\s+");
        StringBuilder title = new StringBuilder();
        for (int i = 0; i < Math.min(6, words.length); i++) {
            if (i > 0) title.append(' ');
            title.append(words[i]);
        }
        String t = title.toString().replaceAll("[.,;:!?]+$", "");
        return t.isEmpty() ? "Study note" : t.substring(0, 1).toUpperCase(Locale.ROOT) + t.substring(1);
    }

    private static ObjectNode json() {
        return ChatWire.JSON.createObjectNode();
    }
}
