package dev.baton.server.compat;

import dev.baton.app.BatonApp;
import dev.baton.learning.memory.MemoryService;
import dev.baton.runtime.Baton;
import dev.baton.runtime.config.ConfigException;
import dev.baton.server.http.SseStreams;
import io.javalin.config.RoutesConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/** The designs' own APIs that {@link CompatSettings} switches on, each over the same runtime as HTTP v1. */
public final class CompatRoutes {
    private CompatRoutes() {}

    /**
     * The route groups to register, in an order where {@code /api/agent/...} is matched before the todo chatbot's
     * {@code /api/{user_id}/...}.
     *
     * @throws ConfigException when an enabled surface names an agent that is not configured
     */
    public static List<Consumer<RoutesConfig>> groups(
            CompatSettings settings, BatonApp app, int maxBodyBytes, SseStreams streams) {
        Baton baton = app.baton();
        CompatTurns plain = new CompatTurns(baton.conversations(), null, maxBodyBytes, streams);
        CompatTurns inWords = new CompatTurns(baton.conversations(), baton.confirmation(), maxBodyBytes, streams);
        Function<CompatSettings.Surface, CompatTurns> turns = s -> s.confirmInWords() ? inWords : plain;
        List<Consumer<RoutesConfig>> groups = new ArrayList<>();
        if (enabled(settings.aiLayer(), baton)) {
            groups.add(new AiLayerRoutes(
                    turns.apply(settings.aiLayer()), settings.aiLayer().agent())::register);
        }
        if (enabled(settings.orchestrator(), baton)) {
            groups.add(new OrchestratorRoutes(
                    turns.apply(settings.orchestrator()),
                    settings.orchestrator().agent())::register);
        }
        if (enabled(settings.learningAgent(), baton)) {
            groups.add(new AgentApiRoutes(
                    turns.apply(settings.learningAgent()),
                    baton.sessions(),
                    app.service(MemoryService.class)
                            .orElseThrow(
                                    () -> new ConfigException(
                                            "compat.learningAgent needs the learning domain (baton-learning) on the class path")),
                    settings.learningAgent().agent())::register);
        }
        if (enabled(settings.chatRuntime(), baton)) {
            groups.add(new ChatRuntimeRoutes(
                    turns.apply(settings.chatRuntime()),
                    baton.sessions(),
                    baton.auditTrails(),
                    settings.chatRuntime().agent(),
                    maxBodyBytes)::register);
        }
        if (enabled(settings.todoChatbot(), baton)) {
            groups.add(new TodoChatRoutes(
                    turns.apply(settings.todoChatbot()), settings.todoChatbot().agent())::register);
        }
        return groups;
    }

    private static boolean enabled(CompatSettings.Surface surface, Baton baton) {
        if (!surface.enabled()) return false;
        if (baton.agents().find(surface.agent()).isEmpty())
            throw new ConfigException("compat: agent '" + surface.agent() + "' is not configured");
        return true;
    }
}
