package dev.baton.app.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolException;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A remote A2A agent as one tool with one input, {@code message}: a blocking {@code SendMessage} (A2A 1.0, JSON-RPC)
 * to the agent's endpoint, whose answer — the task's artifacts, or the message it answered with — is the result. Only
 * the configured headers go with it: the caller's token never leaves Baton. A task the remote leaves waiting for input
 * comes back as {@code state: "input-required"} with its question, for the model to pass on.
 */
final class RemoteAgentTool implements Tool {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The most of a remote answer the model reads. */
    static final int MAX_TEXT = 100_000;
    /** The largest JSON-RPC response read from a remote agent; a larger one is refused rather than held in memory. */
    static final int MAX_ANSWER_BYTES = 4 * 1024 * 1024;

    private final RemoteAgentSettings settings;
    private final HttpClient http;
    private final ToolDefinition definition;

    RemoteAgentTool(RemoteAgentSettings settings, HttpClient http) {
        this.settings = settings;
        this.http = http;
        ObjectNode schema = JSON.createObjectNode().put("type", "object");
        schema.putObject("properties")
                .putObject("message")
                .put("type", "string")
                .put("minLength", 1)
                .put("description", "What to ask or tell the remote agent, in plain language");
        schema.putArray("required").add("message");
        schema.put("additionalProperties", false);
        this.definition = new ToolDefinition(
                settings.toolName(),
                settings.description(),
                schema,
                settings.permissions(),
                settings.timeout(),
                settings.destructive());
    }

    @Override
    public ToolDefinition definition() {
        return definition;
    }

    @Override
    public JsonNode execute(JsonNode arguments, ToolContext context) {
        ObjectNode request =
                JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", "SendMessage");
        ObjectNode message = request.putObject("params")
                .putObject("message")
                .put("messageId", UUID.randomUUID().toString())
                .put("role", "ROLE_USER");
        message.putArray("parts")
                .addObject()
                .put("text", arguments.path("message").asText());
        JsonNode response = post(request, context);
        if (response.has("error")) {
            JsonNode error = response.path("error");
            throw new ToolException(
                    "a2a_error",
                    "the remote agent '" + settings.name() + "' refused: "
                            + error.path("message").asText("an error") + " ("
                            + error.path("code").asInt() + ")");
        }
        JsonNode result = response.path("result");
        if (result.has("message")) return answer("completed", text(result.path("message")), null, null);
        JsonNode task = result.path("task");
        if (!task.isObject())
            throw new ToolException("a2a_error", "the remote agent '" + settings.name() + "' sent no task or message");
        String state = task.at("/status/state").asText("");
        String statusText = text(task.at("/status/message"));
        StringBuilder artifacts = new StringBuilder();
        for (JsonNode artifact : task.path("artifacts")) {
            String t = text(artifact);
            if (!t.isEmpty())
                artifacts.append(artifacts.isEmpty() ? "" : "\n\n").append(t);
        }
        String id = task.path("id").asText(null);
        String contextId = task.path("contextId").asText(null);
        return switch (state) {
            case "TASK_STATE_COMPLETED" ->
                answer("completed", artifacts.isEmpty() ? statusText : artifacts.toString(), id, contextId);
            case "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED" ->
                answer("input-required", statusText, id, contextId);
            case "TASK_STATE_FAILED", "TASK_STATE_REJECTED", "TASK_STATE_CANCELED" ->
                throw new ToolException(
                        "a2a_task_" + state.substring("TASK_STATE_".length()).toLowerCase(Locale.ROOT),
                        "the remote agent '" + settings.name() + "' did not finish: "
                                + (statusText.isEmpty() ? state : statusText));
            default -> answer("working", artifacts.isEmpty() ? statusText : artifacts.toString(), id, contextId);
        };
    }

    /** Sends the request within what is left of the call's time; a cancelled call stops waiting at once. */
    private JsonNode post(ObjectNode body, ToolContext context) {
        Duration left = Duration.between(Instant.now(), context.deadline());
        Duration timeout = left.isNegative() || left.isZero() || left.compareTo(settings.timeout()) > 0
                ? settings.timeout()
                : left;
        HttpRequest.Builder request = HttpRequest.newBuilder(settings.url())
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        settings.headers().forEach(request::header);
        CompletableFuture<HttpResponse<InputStream>> sent =
                http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        int status;
        byte[] answer;
        AtomicReference<InputStream> reading = new AtomicReference<>();
        Runnable stop = () -> {
            sent.cancel(true);
            // a body that is still arriving: closing its stream ends the read at once
            InputStream in = reading.get();
            if (in != null) closeQuietly(in);
        };
        try (Registration ignored = new Registration(context.cancellation().onCancel(stop))) {
            HttpResponse<InputStream> response = sent.get();
            status = response.statusCode();
            try (InputStream in = response.body()) {
                reading.set(in);
                answer = in.readNBytes(MAX_ANSWER_BYTES + 1);
            }
        } catch (InterruptedException e) {
            stop.run();
            Thread.currentThread().interrupt();
            throw new ToolException("cancelled", "the call to the remote agent was cancelled");
        } catch (CancellationException e) {
            throw new ToolException("cancelled", "the call to the remote agent was cancelled");
        } catch (ExecutionException | IOException e) {
            if (context.cancellation().isCancelled())
                throw new ToolException("cancelled", "the call to the remote agent was cancelled");
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new ToolException(
                    "a2a_unavailable",
                    "the remote agent '" + settings.name() + "' did not answer"
                            + (cause instanceof HttpTimeoutException ? " in time" : ""));
        }
        if (answer.length > MAX_ANSWER_BYTES)
            throw new ToolException(
                    "a2a_unavailable",
                    "the remote agent '" + settings.name() + "' answered more than " + MAX_ANSWER_BYTES + " bytes");
        try {
            JsonNode json = JSON.readTree(answer);
            if (json != null && json.isObject() && (json.has("result") || json.has("error"))) return json;
        } catch (IOException e) {
            // not JSON-RPC: reported by its status below
        }
        throw new ToolException(
                "a2a_unavailable", "the remote agent '" + settings.name() + "' answered HTTP " + status);
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // the read fails either way
        }
    }

    /** Stops listening for the call's cancellation once the answer is in. */
    private record Registration(AutoCloseable registration) implements AutoCloseable {
        @Override
        public void close() {
            try {
                registration.close();
            } catch (Exception e) {
                // nothing listens any more either way
            }
        }
    }

    private static JsonNode answer(String state, String text, String taskId, String contextId) {
        ObjectNode out = JSON.createObjectNode().put("state", state);
        if (text.length() > MAX_TEXT) {
            out.put("text", text.substring(0, MAX_TEXT)).put("truncated", true);
        } else {
            out.put("text", text);
        }
        if (taskId != null) out.put("taskId", taskId);
        if (contextId != null) out.put("contextId", contextId);
        return out;
    }

    /** The text parts of a message or artifact, joined by new lines. */
    private static String text(JsonNode withParts) {
        StringBuilder out = new StringBuilder();
        for (JsonNode part : withParts.path("parts")) {
            if (part.path("text").isTextual()) {
                if (!out.isEmpty()) out.append('\n');
                out.append(part.path("text").asText());
            } else if (part.has("data")) {
                if (!out.isEmpty()) out.append('\n');
                out.append(part.path("data").toString());
            }
        }
        return out.toString();
    }
}
