package dev.baton.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.domain.rest.RestRequest;
import dev.baton.domain.rest.RouteHandler;
import dev.baton.domain.rest.Routes;
import dev.baton.runtime.config.ConfigFile;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A program that assembles a Baton from {@code <dir>/baton.yaml} with whatever domains its class path holds, runs one
 * turn with the "bookmarks" agent and prints what it saw, a line each; run by {@link ThirdPartyDomainIT} in a JVM of
 * its own, with and without the third-party domain's jar.
 */
public final class PluginHost {
    private PluginHost() {}

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        SimulatorScript script = SimulatorScript.builder()
                .whenUserSays("bookmark baton.dev", Reply.toolCall("add_bookmark", "{\"url\":\"https://baton.dev\"}"))
                .whenToolResult("add_bookmark", Reply.text("Saved."))
                .build();
        try (LlmSimulator simulator = LlmSimulator.start(script)) {
            ConfigFile file = ConfigLoader.read(dir.resolve("baton.yaml"), Map.of());
            BatonConfig config = ConfigLoader.from(file, Map.of());
            AppSettings settings = AppSettings.read(config, file);
            System.out.println("domains=" + settings.domains().names());
            try (BatonApp app =
                    BatonApp.start(settings, BatonApp.Options.DEFAULTS.withSimulatorBaseUrl(simulator.baseUrl()))) {
                Set<String> granted = config.rolePermissions().get("user");
                System.out.println("user-role=" + granted.stream().sorted().toList());
                Principal alice = new Principal("alice", "acme", "Alice", null, Set.of("user"), granted, List.of());
                Session session = app.baton().sessions().start(alice, "bookmarks", null);
                SendResult result = app.baton()
                        .conversations()
                        .send(alice, session.id(), "bookmark baton.dev", SendOptions.withNewRequestId(), e -> {});
                System.out.println(
                        "answer=" + ((SendResult.Ran) result).outcome().answer());
                System.out.println("route=" + get(app, "/v1/bookmarks", alice));
            }
        } catch (RuntimeException e) {
            System.out.println("failed=" + e.getMessage());
            System.exit(3);
        }
    }

    /** Calls the domains' GET route at {@code path} as {@code caller}. */
    private static JsonNode get(BatonApp app, String path, Principal caller) {
        JsonNode[] answer = new JsonNode[1];
        Routes routes = new Routes() {
            @Override
            public void get(String p, RouteHandler handler) {
                if (p.equals(path)) answer[0] = handler.handle(request(caller)).body();
            }

            @Override
            public void post(String p, RouteHandler handler) {}

            @Override
            public void patch(String p, RouteHandler handler) {}

            @Override
            public void put(String p, RouteHandler handler) {}

            @Override
            public void delete(String p, RouteHandler handler) {}
        };
        app.routes().forEach(group -> group.register(routes));
        return answer[0];
    }

    private static RestRequest request(Principal caller) {
        return new RestRequest() {
            @Override
            public Principal caller() {
                return caller;
            }

            @Override
            public String pathParam(String name) {
                return null;
            }

            @Override
            public String queryParam(String name) {
                return null;
            }

            @Override
            public Map<String, String> queryParams() {
                return Map.of();
            }

            @Override
            public JsonNode body() {
                throw new IllegalStateException("a GET has no body");
            }
        };
    }
}
