package dev.baton.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A terminal client: resumes (or starts) a session, shows its last messages, streams each answer and shows tool calls
 * as they run. Ctrl-C stops an answer, a second one quits; slash commands switch sessions and agents. A tool call
 * that waits for approval is asked about (y/N) and the decision sent, which goes on with the turn.
 */
@Command(
        name = "chat",
        mixinStandardHelpOptions = true,
        description = "Chat with an agent in the terminal (the server: --url, $BATON_URL, or localhost:$BATON_PORT).")
final class ChatCommand implements Callable<Integer> {

    private static final String HELP = """
              /new            start a new session with this agent
              /agent [ID]     list the agents, or switch to one (its newest active session, or a new one)
              /sessions       your recent sessions
              /edit           write the message in $EDITOR (long or pasted text)
              /file PATH      send a file's text as the message
              /help           this list
              /quit           leave (or Ctrl-D)
              A line ending in \\ goes on on the next line; \"\"\" on its own line starts and ends a block.
              Ctrl-C stops the answer being written; a second Ctrl-C quits.""";

    @Option(
            names = "--url",
            description = "Server URL (default: $BATON_URL, else http://localhost:$BATON_PORT, port 8080 by default).")
    String url;

    @Option(names = "--token", description = "Bearer token (default: $BATON_TOKEN).")
    String token;

    @Option(names = "--agent", defaultValue = "tasks", description = "Agent id (default: ${DEFAULT-VALUE}).")
    String agent;

    @Option(names = "--new", description = "Start a new session instead of resuming the newest active one.")
    boolean fresh;

    @Option(
            names = "--history",
            defaultValue = "6",
            description = "Messages shown when resuming a session (default: ${DEFAULT-VALUE}).")
    int history;

    private final PrintStream out = System.out;
    private final Interrupts interrupts = new Interrupts(out);
    private ServerClient client;
    private ChatInput input;
    /** The approval_required events of the stream being read, asked about once it ends. */
    private final List<JsonNode> awaiting = new ArrayList<>();

    private String sessionId;
    /** Whether the next answer text starts a new "baton>" line (after a tool line, or at the start). */
    private boolean atLineStart;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Map<String, String> env = System.getenv();
        client = new ServerClient(serverUrl(env), token(env));
        open(agent, fresh);
        boolean ctrlC = interrupts.install();
        out.println("Type a message and press Enter; /help lists the commands; "
                + (ctrlC ? "Ctrl-C stops an answer, " : "") + "Ctrl-D quits.");
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        input = new ChatInput(reader, out, System.console() != null);
        while (true) {
            String text = input.next("\nyou> ");
            if (text == null) return ExitCodes.OK;
            if (text.isBlank()) continue;
            if (text.startsWith("/")) {
                if (!command(text.strip())) return ExitCodes.OK;
            } else {
                send(text);
            }
        }
    }

    private String serverUrl(Map<String, String> env) {
        return ServerClient.urlFrom(url, env);
    }

    /** --token, else $BATON_TOKEN, else a token for 'demo' signed with the development secret a local server keeps. */
    private String token(Map<String, String> env) {
        return CallerToken.resolve(token, env, out, "demo", "student");
    }

    /** Resumes the agent's newest active session (showing its last messages), or starts one. */
    private void open(String agentId, boolean startNew) {
        String resumed = startNew ? null : client.newestActiveSession(agentId);
        agent = agentId;
        if (resumed == null) {
            sessionId = client.startSession(agentId);
            out.println("New session " + sessionId + " with agent '" + agentId + "' at " + client.url() + ".");
            return;
        }
        sessionId = resumed;
        List<JsonNode> last = client.lastMessages(resumed, Math.max(1, history));
        out.println("Resuming session " + resumed + " with agent '" + agentId + "' at " + client.url()
                + (last.isEmpty() ? "." : "; its last messages:"));
        for (JsonNode m : last) {
            String who = m.path("role").asText().equals("user") ? "you> " : "baton> ";
            String content = m.path("content").asText();
            String shown = content.length() > 300 ? content.substring(0, 297) + "..." : content;
            out.println("  " + who + shown.replace("\n", "\n  " + " ".repeat(who.length())));
        }
    }

    /** Runs a slash command; false to quit. */
    private boolean command(String line) throws IOException, InterruptedException {
        String[] parts = line.split("\\s+", 2);
        String arg = parts.length > 1 ? parts[1].strip() : "";
        switch (parts[0]) {
            case "/quit", "/exit" -> {
                return false;
            }
            case "/help" -> HELP.lines().forEach(l -> out.println("  " + l));
            case "/new" -> open(agent, true);
            case "/agent" -> {
                List<String> agents = client.agents();
                if (arg.isEmpty()) {
                    out.println("Agents: " + String.join(", ", agents) + " (now: " + agent + ")");
                } else if (!agents.contains(arg)) {
                    out.println("No agent '" + arg + "' for you; agents: " + String.join(", ", agents));
                } else {
                    open(arg, false);
                }
            }
            case "/sessions" -> {
                for (JsonNode s : client.sessions(10)) {
                    out.println("  " + s.path("id").asText() + "  "
                            + s.path("agentId").asText() + "  "
                            + s.path("state").asText() + "  "
                            + s.path("messageCount").asInt() + " messages  started "
                            + s.path("startedAt").asText()
                            + (s.path("id").asText().equals(sessionId) ? "  (this one)" : ""));
                }
            }
            case "/file" -> {
                if (arg.isEmpty()) out.println("Usage: /file PATH");
                else sendIfAny(readFile(arg));
            }
            case "/edit" -> sendIfAny(ChatInput.fromEditor());
            default -> out.println("Unknown command " + parts[0] + "; /help lists the commands.");
        }
        return true;
    }

    private String readFile(String path) {
        try {
            return ChatInput.fromFile(path);
        } catch (IOException e) {
            out.println("Cannot read " + path + ": " + e.getMessage());
            return "";
        }
    }

    private void sendIfAny(String text) {
        if (text.isBlank()) {
            out.println("(nothing to send)");
            return;
        }
        out.println("(sending " + text.length() + " characters)");
        send(text);
    }

    private void send(String text) {
        String session = sessionId;
        interrupts.answering(() -> client.cancel(session));
        atLineStart = true;
        try {
            String refused = client.stream(sessionId, text, this::render);
            if (refused != null) toolLine("[error] " + refused);
            // each held call is asked about; the last decision goes on with the turn, which may hold calls again
            while (!awaiting.isEmpty()) {
                List<JsonNode> ask = List.copyOf(awaiting);
                awaiting.clear();
                for (JsonNode call : ask) {
                    String answer = input.next(ApprovalPrompts.question(call));
                    boolean yes = answer != null
                            && answer.strip().toLowerCase(Locale.ROOT).startsWith("y");
                    atLineStart = true;
                    refused = client.decide(session, call.path("callId").asText(), yes, this::render);
                    if (refused != null) toolLine("[error] " + refused);
                }
            }
        } catch (IOException e) {
            toolLine("[error] could not read your answer: " + e.getMessage());
        } finally {
            awaiting.clear();
            interrupts.idle();
        }
        out.println();
    }

    private void render(JsonNode e) {
        switch (e.path("type").asText()) {
            case "chunk", "blocked" -> {
                if (atLineStart) out.print("baton> ");
                atLineStart = false;
                out.print(e.path(e.path("type").asText().equals("chunk") ? "content" : "response")
                        .asText());
            }
            case "approval_required" -> {
                awaiting.add(e);
                toolLine(ApprovalPrompts.announcement(e));
            }
            case "tool_call" -> toolLine("[tool] " + e.path("name").asText() + " " + e.path("arguments"));
            case "tool_result" ->
                toolLine("["
                        + (e.path("ok").asBoolean()
                                ? "ok"
                                : "failed: " + e.path("error").asText()) + "] "
                        + e.path("name").asText() + " in "
                        + e.path("durationMs").asLong() + " ms");
            case "error" ->
                toolLine(
                        e.path("code").asText().equals("cancelled")
                                ? "(stopped; what was said so far is kept)"
                                : "[error] " + e.path("message").asText() + " ("
                                        + e.path("code").asText() + ")");
            case "done" ->
                toolLine("(" + e.path("model").asText() + ", "
                        + e.path("usage").path("inputTokens").asLong() + " in / "
                        + e.path("usage").path("outputTokens").asLong() + " out tokens)");
            default -> {}
        }
        out.flush();
    }

    private void toolLine(String text) {
        if (!atLineStart) out.println();
        out.println("  " + text);
        atLineStart = true;
    }
}
