package dev.baton.modules.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.Assignment;
import dev.baton.core.hook.HookContext;
import java.time.Instant;

/**
 * The JSON a webhook receives (wire format version {@value #VERSION}, documented in docs/modules.md): the hook
 * context, field for field. The agent is sent as id, name and {@code constraints} only — its definition holds
 * module configuration, webhook secrets included.
 */
final class WebhookPayload {

    static final int VERSION = 1;

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private WebhookPayload() {}

    static ObjectNode of(HookContext c) {
        ObjectNode root = JSON.objectNode();
        root.put("version", VERSION);
        root.put("hook", c.request().hook().wireName());
        root.put("requestId", c.request().requestId());
        root.put("timestamp", c.request().timestamp().toString());

        ObjectNode user = root.putObject("user");
        user.put("id", c.user().id());
        user.put("name", c.user().name());
        user.put("email", c.user().email());
        ArrayNode roles = user.putArray("roles");
        c.user().roles().stream().sorted().forEach(roles::add);

        ObjectNode scope = root.putObject("scope");
        scope.put("tenantId", c.scope().tenantId());
        scope.put("classId", c.scope().classId());
        scope.set("assignment", assignment(c.scope().assignment()));

        ObjectNode agent = root.putObject("agent");
        agent.put("id", c.agent().id());
        agent.put("name", c.agent().name());
        agent.set("constraints", c.agent().constraints().toJson());

        ObjectNode session = root.putObject("session");
        session.put("id", c.session().id());
        session.put("state", c.session().state());
        session.put("startedAt", c.session().startedAt().toString());
        session.put("messageCount", c.session().messageCount());
        session.put("endReason", c.session().endReason());

        ObjectNode conversation = root.putObject("conversation");
        ArrayNode history = conversation.putArray("history");
        for (HookContext.HistoryMessage m : c.conversation().history()) {
            ObjectNode h = history.addObject();
            h.put("role", m.role());
            h.put("content", m.content());
            h.put("createdAt", text(m.createdAt()));
        }
        conversation.put("currentMessage", c.conversation().currentMessage());
        root.put("response", c.response());
        return root;
    }

    private static JsonNode assignment(Assignment a) {
        if (a == null) {
            return JSON.nullNode();
        }
        ObjectNode n = JSON.objectNode();
        n.put("id", a.id());
        n.put("title", a.title());
        n.put("instructions", a.instructions());
        n.put("classId", a.classId());
        n.put("availableAt", text(a.availableAt()));
        n.put("closesAt", text(a.closesAt()));
        return n;
    }

    private static String text(Instant at) {
        return at == null ? null : at.toString();
    }
}
