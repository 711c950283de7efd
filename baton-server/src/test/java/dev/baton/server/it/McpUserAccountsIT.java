package dev.baton.server.it;

import static dev.baton.server.it.McpFixture.q;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.mcp.client.oauth.TokenCipher;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.npm.NpmPackages;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Users' own accounts on an external MCP server ({@code auth: oauth}), end to end with real peers: {@code oidc-provider}
 * (npm) as the authorization server with its development login and consent forms, and an MCP server on the official
 * TypeScript SDK that takes only that provider's tokens (verified by its JWKS) and answers with the token subject's own
 * data. Baton finds the provider from the MCP server's protected-resource metadata; each user connects by the
 * authorization code flow with PKCE, driven here over plain HTTP as a browser would (following redirects, posting the
 * forms). Alice sees her data only; Bob, not connected, gets {@code connect_required} (a typed event and a tool result
 * that tells the model), then connects and sees his own only; Alice disconnects and is asked to connect again; a
 * callback whose state or {@code iss} is not right is refused with 400. The provider's access tokens live 20 s, less
 * than the margin within which Baton refreshes, so every call goes through a refresh (with rotated refresh tokens).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpUserAccountsIT {
    static final String AGENT = """
            id: notes
            name: Notes assistant
            model: simulator:default
            tools: ["mcp:notes/*", "mcp:steady/*", "mcp:dynamic/*"]
            systemPrompt: You read the user's own notes service.
            """;
    static final Pattern FORM_ACTION = Pattern.compile("<form[^>]*action=\"([^\"]+)\"");
    static final Pattern HIDDEN =
            Pattern.compile("<input[^>]*type=\"hidden\"[^>]*name=\"([^\"]+)\"[^>]*value=\"([^\"]*)\"");

    @TempDir
    static Path dir;

    Process peers;
    String callback;
    TestServer t;
    final String alice = TestServer.token("alice", "student");
    final String bob = TestServer.token("bob", "student");
    final String carol = TestServer.token("carol", "student");
    final HttpClient baton = HttpClient.newHttpClient();

    @BeforeAll
    void start() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        callback = "http://127.0.0.1:" + port + "/oauth/mcp/callback";
        Path installed = NpmPackages.require(
                Path.of("target", "npm-accounts"), List.of(NpmPackages.OIDC_PROVIDER, NpmPackages.TYPESCRIPT_SDK));
        Path script = NpmPackages.copyScript(installed, "/oauth/accounts-peers.mjs");
        peers = new ProcessBuilder(NpmPackages.node(), script.toString(), callback)
                .directory(installed.toFile())
                .redirectError(installed.resolve("accounts-peers.log").toFile())
                .start();
        String line =
                new BufferedReader(new InputStreamReader(peers.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(line).as("the peers' first line").isNotNull();
        JsonNode started = ApiClient.JSON.readTree(line);
        String mcpUrl = started.path("mcpUrl").asText();
        String steadyUrl = started.path("steadyUrl").asText();

        // no issuer configured: Baton reads it from the MCP server's protected-resource metadata
        String yaml = """
                mcp:
                  oauthCallback: %s
                  servers:
                    notes:
                      url: %s
                      state: perUser
                      auth: oauth
                      trusted: true
                      oauth: { clientId: baton, scopes: [openid, mcp] }
                    steady:
                      url: %s
                      state: perUser
                      auth: oauth
                      trusted: true
                      oauth: { clientId: baton, scopes: [openid, mcp] }
                      tools: { forget_this_token: { destructive: false } }
                    dynamic: { url: %s, state: perUser, auth: oauth, trusted: true, oauth: { scopes: [openid, mcp] } }
                """.formatted(q(callback), q(mcpUrl), q(steadyUrl), q(mcpUrl));
        Path agents = Files.createDirectories(dir.resolve("agents"));
        Files.writeString(agents.resolve("notes.yaml"), AGENT);
        Set<String> chat =
                Set.of("sessions:read:self", "sessions:write:self", "mcp:notes", "mcp:steady", "mcp:dynamic");
        BatonConfig config = new BatonConfig(
                port,
                TestServer.sqliteUrl(dir),
                TestServer.SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                TurnLimits.DEFAULTS,
                Map.of("student", chat),
                List.of(agents),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                ConfigLoader.yamlMapper().readTree(yaml),
                Map.of("BATON_TOKEN_KEY", TokenCipher.generateKey()));
        SimulatorScript script1 = SimulatorScript.builder()
                .whenUserSays("who am i", Reply.toolCall("notes__whoami", "{}"))
                .whenUserSays("my items", Reply.toolCall("notes__my_items", "{}"))
                .whenUserSays("steady who", Reply.toolCall("steady__whoami", "{}"))
                .whenUserSays("steady forget", Reply.toolCall("steady__forget_this_token", "{}"))
                .whenUserSays("dynamic who", Reply.toolCall("dynamic__whoami", "{}"))
                .whenToolResult("dynamic__whoami", Reply.text("Checked."))
                .whenToolResult("steady__whoami", Reply.text("Checked."))
                .whenToolResult("steady__forget_this_token", Reply.text("Forgotten."))
                .whenToolResult("notes__whoami", Reply.text("Checked."))
                .whenToolResult("notes__my_items", Reply.text("Listed."))
                .build();
        t = TestServer.start(config, LlmSimulator.start(script1), true, Clock.systemUTC());
    }

    @AfterAll
    void stop() throws InterruptedException {
        if (t != null) t.close();
        if (peers != null) {
            peers.destroy();
            if (!peers.waitFor(10, TimeUnit.SECONDS)) peers.destroyForcibly();
        }
    }

    @Test
    void each_user_connects_their_own_account_and_sees_only_their_own_data_until_they_disconnect() throws Exception {
        // alice connects, and her call carries her token: the server answers as alice
        assertThat(connect(alice, "alice").path("connected").asBoolean()).isTrue();
        List<SseEvent> alices = turn(alice, "who am i");
        assertThat(toolResult(alices).path("ok").asBoolean())
                .as(alices.toString())
                .isTrue();
        assertThat(toolResult(alices).path("result").path("text").asText()).contains("\"sub\":\"alice\"");
        assertThat(ofType(alices, "connect_required")).isEmpty();

        // bob has not connected: a typed event with where to connect, and a tool result that tells the model
        List<SseEvent> bobs = turn(bob, "my items");
        List<SseEvent> asked = ofType(bobs, "connect_required");
        assertThat(asked).as(bobs.toString()).hasSize(1);
        assertThat(asked.get(0).data().path("server").asText()).isEqualTo("notes");
        assertThat(asked.get(0).data().path("connectUrl").asText()).isEqualTo("/v1/mcp/servers/notes/connect");
        assertThat(asked.get(0).data().path("toolCallId").asText())
                .isEqualTo(toolResult(bobs).path("id").asText());
        assertThat(toolResult(bobs).path("ok").asBoolean()).isFalse();
        assertThat(toolResult(bobs).path("error").asText())
                .startsWith("connect_required: ")
                .contains("connect their notes account");
        assertThat(bobs.toString()).doesNotContain("alice");

        // bob connects: his items, never alice's
        connect(bob, "bob");
        String bobsItems =
                toolResult(turn(bob, "my items")).path("result").path("text").asText();
        assertThat(bobsItems).contains("bob's bicycle").doesNotContain("alice");
        String alicesItems =
                toolResult(turn(alice, "my items")).path("result").path("text").asText();
        assertThat(alicesItems).contains("alice's notebook").doesNotContain("bob");

        // each lists their own connection only; alice's tokens were refreshed for her calls (they live 20 s, less
        // than the margin Baton refreshes within), so they are newer than the connection
        JsonNode listed = t.api.get("/v1/mcp/connections", alice).body();
        assertThat(listed.path("connections").findValuesAsText("server")).containsExactly("notes");
        JsonNode alicesConnection = listed.path("connections").get(0);
        assertThat(java.time.Instant.parse(alicesConnection.path("updatedAt").asText()))
                .isAfter(java.time.Instant.parse(
                        alicesConnection.path("connectedAt").asText()));
        assertThat(alicesConnection.toString()).doesNotContain("access").doesNotContain("refresh");
        assertThat(listed.path("servers").findValuesAsText("server")).containsExactly("dynamic", "notes", "steady");
        assertThat(listed.path("servers").get(1).path("connected").asBoolean()).isTrue();
        JsonNode carols = t.api.get("/v1/mcp/connections", carol).body();
        assertThat(carols.path("connections")).isEmpty();
        assertThat(carols.path("servers").get(1).path("connected").asBoolean()).isFalse();
        assertThat(carols.path("servers").get(1).path("connectUrl").asText())
                .isEqualTo("/v1/mcp/servers/notes/connect");

        // alice disconnects (once): she is asked to connect again; bob is still connected
        assertThat(t.api.delete("/v1/mcp/connections/notes", alice).status()).isEqualTo(204);
        var again = t.api.delete("/v1/mcp/connections/notes", alice);
        assertThat(again.status()).isEqualTo(404);
        assertThat(again.body().path("error").path("code").asText()).isEqualTo("not_found");
        assertThat(ofType(turn(alice, "who am i"), "connect_required")).hasSize(1);
        assertThat(toolResult(turn(bob, "who am i")).path("result").path("text").asText())
                .contains("\"sub\":\"bob\"");
    }

    @Test
    void a_token_the_server_refuses_is_refreshed_and_the_call_sent_again() throws Exception {
        // tokens for this server outlive Baton's refresh margin: the one the server refuses is used, not refreshed
        // first
        String erin = TestServer.token("erin", "student");
        connect(erin, "erin", "steady");
        assertThat(toolResult(turn(erin, "steady who"))
                        .path("result")
                        .path("text")
                        .asText())
                .contains("\"sub\":\"erin\"", "\"refusals\":0");
        assertThat(toolResult(turn(erin, "steady forget")).path("ok").asBoolean())
                .isTrue();

        List<SseEvent> after = turn(erin, "steady who");

        // the server refused erin's token once; Baton refreshed it and sent the call again, which went through
        assertThat(ofType(after, "connect_required")).isEmpty();
        assertThat(toolResult(after).path("ok").asBoolean())
                .as(after.toString())
                .isTrue();
        assertThat(toolResult(after).path("result").path("text").asText())
                .contains("\"sub\":\"erin\"", "\"refusals\":1");
    }

    @Test
    void a_server_with_no_client_configured_gets_one_by_dynamic_registration() throws Exception {
        String frank = TestServer.token("frank", "student");
        Started started = start(frank, "dynamic");
        String clientId = query(started.authorizationUrl()).get("client_id");
        assertThat(clientId).isNotBlank().isNotEqualTo("baton");

        URI back = new ProviderBrowser().authorize(started.authorizationUrl(), "frank");
        assertThat(callback(back.getRawQuery(), started.cookie()).status()).isEqualTo(200);

        assertThat(toolResult(turn(frank, "dynamic who"))
                        .path("result")
                        .path("text")
                        .asText())
                .contains("\"sub\":\"frank\"");
        // the registered client is kept: the next authorization names the same one
        assertThat(query(start(frank, "dynamic").authorizationUrl()).get("client_id"))
                .isEqualTo(clientId);
    }

    @Test
    void connecting_an_unknown_server_or_without_a_token_is_refused() {
        var unknown = t.api.get("/v1/mcp/servers/nope/connect", carol);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.body().path("error").path("code").asText()).isEqualTo("not_found");
        var unknownDelete = t.api.delete("/v1/mcp/connections/nope", carol);
        assertThat(unknownDelete.status()).isEqualTo(404);
        assertThat(t.api.get("/v1/mcp/servers/notes/connect", null).status()).isEqualTo(401);
        assertThat(t.api.get("/v1/mcp/connections", null).status()).isEqualTo(401);
    }

    @Test
    void a_plain_connect_redirects_to_the_authorization_server_with_pkce_state_and_resource() throws Exception {
        HttpResponse<String> r = baton.send(
                HttpRequest.newBuilder(URI.create(base() + "/v1/mcp/servers/notes/connect"))
                        .header("Authorization", "Bearer " + carol)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).isEqualTo(302);
        Map<String, String> query =
                query(URI.create(r.headers().firstValue("Location").orElseThrow()));
        assertThat(query)
                .containsEntry("response_type", "code")
                .containsEntry("client_id", "baton")
                .containsEntry("code_challenge_method", "S256")
                .containsEntry("redirect_uri", callback)
                .containsKeys("code_challenge", "state", "resource");
        assertThat(r.headers().firstValue("Set-Cookie").orElseThrow())
                .startsWith("baton_mcp_oauth=")
                .contains("HttpOnly", "SameSite=Lax");
    }

    @Test
    void a_callback_with_a_missing_changed_or_another_browsers_state_or_a_wrong_iss_is_400() throws Exception {
        Started carols = start(carol);
        Started daves = start(TestServer.token("dave", "student"));
        URI back = new ProviderBrowser().authorize(carols.authorizationUrl(), "carol");
        Map<String, String> params = query(back);

        assertThat(callback("", carols.cookie())
                        .body()
                        .path("error")
                        .path("code")
                        .asText())
                .isEqualTo("invalid_state");
        String changed = params.get("state").substring(0, params.get("state").length() - 4) + "AAAA";
        var tampered = callback(with(params, "state", changed), carols.cookie());
        assertThat(tampered.status()).isEqualTo(400);
        assertThat(tampered.body().path("error").path("code").asText()).isEqualTo("invalid_state");
        // carol's state from dave's browser, or from none
        var otherBrowser = callback(with(params, "state", params.get("state")), daves.cookie());
        assertThat(otherBrowser.status()).isEqualTo(400);
        assertThat(otherBrowser.body().path("error").path("message").asText()).contains("another browser");
        assertThat(callback(with(params, "state", params.get("state")), null).status())
                .isEqualTo(400);
        // the right state, but an iss that is not the authorization server's (RFC 9207)
        var wrongIss = callback(with(params, "iss", "http://127.0.0.1:1/not-the-issuer"), carols.cookie());
        assertThat(wrongIss.status()).isEqualTo(400);
        assertThat(wrongIss.body().path("error").path("code").asText()).isEqualTo("issuer_mismatch");
        // none of that connected carol: the untouched callback still does (its code was never spent)
        var right = callback(with(params, "state", params.get("state")), carols.cookie());
        assertThat(right.status()).as(right.raw()).isEqualTo(200);
        assertThat(t.api.get("/v1/mcp/connections", carol).body().path("connections"))
                .hasSize(1);
        assertThat(t.api.delete("/v1/mcp/connections/notes", carol).status()).isEqualTo(204);
    }

    // ---- the flow, as a browser does it

    record Started(URI authorizationUrl, String cookie) {}

    /** Connects the user's account: start at Baton, log in and consent at the provider, come back to Baton. */
    private JsonNode connect(String token, String login) throws Exception {
        return connect(token, login, "notes");
    }

    private JsonNode connect(String token, String login, String server) throws Exception {
        Started started = start(token, server);
        URI back = new ProviderBrowser().authorize(started.authorizationUrl(), login);
        var r = callback(back.getRawQuery(), started.cookie());
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }

    private Started start(String token) throws Exception {
        return start(token, "notes");
    }

    private Started start(String token, String server) throws Exception {
        HttpResponse<String> r = baton.send(
                HttpRequest.newBuilder(URI.create(base() + "/v1/mcp/servers/" + server + "/connect"))
                        .header("Authorization", "Bearer " + token)
                        .header("Accept", "application/json")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        String cookie = r.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];
        return new Started(
                URI.create(ApiClient.JSON
                        .readTree(r.body())
                        .path("authorizationUrl")
                        .asText()),
                cookie);
    }

    private ApiClient.Response callback(String rawQuery, String cookie) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(callback + "?" + rawQuery))
                .header("Accept", "application/json")
                .GET();
        if (cookie != null) b.header("Cookie", cookie);
        HttpResponse<String> r = baton.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = r.body().isEmpty() ? null : ApiClient.JSON.readTree(r.body());
        return new ApiClient.Response(r.statusCode(), body, r.headers(), r.body());
    }

    /** The provider's side of a browser: its cookies kept, redirects followed by hand, its forms posted. */
    private final class ProviderBrowser {
        final HttpClient http = HttpClient.newBuilder()
                .cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();

        /** Follows the authorization to the redirect back to Baton, logging in as {@code login}; returns that URL. */
        URI authorize(URI authorizationUrl, String login) throws Exception {
            HttpRequest next = HttpRequest.newBuilder(authorizationUrl).GET().build();
            for (int step = 0; step < 20; step++) {
                HttpResponse<String> r = http.send(next, HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() / 100 == 3) {
                    URI location = next.uri()
                            .resolve(r.headers().firstValue("Location").orElseThrow());
                    if (location.toString().startsWith(callback)) return location;
                    next = HttpRequest.newBuilder(location).GET().build();
                    continue;
                }
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                Matcher action = FORM_ACTION.matcher(r.body());
                assertThat(action.find()).as(r.body()).isTrue();
                Map<String, String> form = new LinkedHashMap<>();
                Matcher hidden = HIDDEN.matcher(r.body());
                while (hidden.find()) form.put(hidden.group(1), hidden.group(2));
                if (r.body().contains("name=\"login\"")) {
                    form.put("login", login);
                    form.put("password", "any");
                }
                next = HttpRequest.newBuilder(next.uri().resolve(action.group(1)))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(encode(form)))
                        .build();
            }
            throw new AssertionError("the authorization did not come back to Baton within 20 steps");
        }
    }

    // ---- helpers

    private List<SseEvent> turn(String token, String content) {
        String session = t.api.startSession(token, "notes");
        try (ApiClient.SseStream stream = t.api.stream(session, token, content)) {
            return stream.all();
        }
    }

    private static JsonNode toolResult(List<SseEvent> events) {
        return ofType(events, "tool_result").stream()
                .findFirst()
                .orElseThrow(() -> new AssertionError("no tool_result in " + events))
                .data();
    }

    private static List<SseEvent> ofType(List<SseEvent> events, String type) {
        return events.stream().filter(e -> e.event().equals(type)).toList();
    }

    private String base() {
        return callback.substring(0, callback.indexOf("/oauth/"));
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : uri.getRawQuery().split("&")) {
            String[] kv = pair.split("=", 2);
            out.put(
                    java.net.URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                    kv.length == 2 ? java.net.URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
        }
        return out;
    }

    private static String with(Map<String, String> params, String name, String value) {
        Map<String, String> changed = new LinkedHashMap<>(params);
        changed.put(name, value);
        return encode(changed);
    }

    private static String encode(Map<String, String> form) {
        return form.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }
}
