package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.TaskAgentScript;
import dev.baton.testkit.npm.NpmPackages;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /mcp} as an OAuth protected resource, with a real OpenID provider ({@code oidc-provider} from npm, run by
 * {@code /oauth/identity-provider.mjs}) as the authorization server: an MCP client that knows nothing but Baton's
 * {@code /mcp} URL follows the 401's {@code resource_metadata} to the metadata, the metadata to the provider, gets a
 * token for the resource by the client credentials grant with an RFC 8707 resource indicator, and calls a tool with it
 * — step by step over plain HTTP, and as the official TypeScript SDK's client does it by itself; a token the same
 * provider issued for another resource is refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpOAuthDiscoveryIT {
    static final String OTHER_RESOURCE = "https://other.example.org/api";
    static final Pattern RESOURCE_METADATA = Pattern.compile("resource_metadata=\"([^\"]+)\"");

    @TempDir
    static Path dir;

    Process provider;
    String issuer;
    String resource;
    TestServer t;
    final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void start() throws IOException {
        // the resource is Baton's own /mcp URL, which the provider and Baton must both know before Baton starts
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        resource = "http://127.0.0.1:" + port + "/mcp";
        Path installed = NpmPackages.require(Path.of("target", "npm-oidc"), List.of(NpmPackages.OIDC_PROVIDER));
        Path script = NpmPackages.copyScript(installed, "/oauth/identity-provider.mjs");
        provider = new ProcessBuilder(NpmPackages.node(), script.toString(), resource)
                .directory(installed.toFile())
                .redirectError(installed.resolve("identity-provider.log").toFile())
                .start();
        // its first line says where it serves, once it does
        String line =
                new BufferedReader(new InputStreamReader(provider.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(line).as("the identity provider's first line").isNotNull();
        issuer = ApiClient.JSON.readTree(line).path("issuer").asText();

        ObjectNode raw = JsonNodeFactory.instance.objectNode();
        raw.putObject("jwt")
                .put("jwksUrl", openIdConfiguration().path("jwks_uri").asText())
                .put("issuer", issuer)
                .put("mcpResource", resource);
        BatonConfig config = new BatonConfig(
                port,
                TestServer.sqliteUrl(dir),
                TestServer.SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                TurnLimits.DEFAULTS,
                TestServer.ROLES,
                List.of(),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                raw,
                Map.of());
        t = TestServer.start(config, LlmSimulator.start(TaskAgentScript.create()), true, Clock.systemUTC());
    }

    @AfterAll
    void stop() throws InterruptedException {
        if (t != null) t.close();
        if (provider != null) {
            provider.destroy();
            if (!provider.waitFor(10, TimeUnit.SECONDS)) provider.destroyForcibly();
        }
    }

    @Test
    void a_client_discovers_the_provider_gets_a_token_for_mcp_and_calls_a_tool() throws Exception {
        // (a) no token: 401, and the challenge names the metadata
        var refused = mcp(null, initialize(), null);
        assertThat(refused.statusCode()).isEqualTo(401);
        String challenge = refused.headers().firstValue("WWW-Authenticate").orElseThrow();
        assertThat(challenge).startsWith("Bearer ").doesNotContain("error=");
        Matcher m = RESOURCE_METADATA.matcher(challenge);
        assertThat(m.find()).as(challenge).isTrue();
        assertThat(m.group(1)).isEqualTo(base() + "/.well-known/oauth-protected-resource/mcp");

        // (b) the metadata names the resource and the provider; the provider's configuration its token endpoint
        JsonNode metadata = getJson(m.group(1));
        assertThat(metadata.path("resource").asText()).isEqualTo(resource);
        assertThat(metadata.path("authorization_servers").get(0).asText()).isEqualTo(issuer);
        assertThat(metadata.path("authorization_servers").size()).isEqualTo(1);
        assertThat(metadata.path("bearer_methods_supported").toString()).isEqualTo("[\"header\"]");
        String authorizationServer =
                metadata.path("authorization_servers").get(0).asText();
        JsonNode openId = getJson(authorizationServer + "/.well-known/openid-configuration");
        assertThat(openId.path("issuer").asText()).isEqualTo(authorizationServer);
        String token = clientCredentials(
                openId.path("token_endpoint").asText(),
                metadata.path("resource").asText());
        assertThat(claims(token).path("aud").asText()).isEqualTo(resource);

        // (c) the token opens a session, lists Baton's tools and calls one
        var initialized = mcp(token, initialize(), null);
        assertThat(initialized.statusCode()).as(initialized.body()).isEqualTo(200);
        String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(mcp(token, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session)
                        .statusCode())
                .isEqualTo(202);
        var listed = mcp(token, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", session);
        assertThat(listed.statusCode()).isEqualTo(200);
        List<String> names = ApiClient.JSON
                .readTree(listed.body())
                .path("result")
                .path("tools")
                .findValuesAsText("name");
        assertThat(names).contains("add_task", "list_tasks");
        var called = mcp(
                token,
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"add_task\","
                        + "\"arguments\":{\"title\":\"found the provider myself\"}}}",
                session);
        assertThat(called.statusCode()).isEqualTo(200);
        JsonNode result = ApiClient.JSON.readTree(called.body()).path("result");
        assertThat(result.path("isError").asBoolean(false)).as(called.body()).isFalse();
        assertThat(result.toString()).contains("found the provider myself");
        // the task is the token's subject's: the provider's client
        var listedTasks = mcp(
                token,
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"list_tasks\","
                        + "\"arguments\":{}}}",
                session);
        assertThat(listedTasks.body()).contains("found the provider myself");
    }

    @Test
    void the_official_typescript_sdk_client_discovers_and_connects_with_only_the_url_and_its_credentials()
            throws Exception {
        Path installed = NpmPackages.require();
        Path script = NpmPackages.copyScript(installed, "/oauth/mcp-oauth-client.mjs");
        Process client = new ProcessBuilder(
                        NpmPackages.node(), script.toString(), resource, "mcp-client", "mcp-client-secret", issuer)
                .directory(installed.toFile())
                .redirectError(installed.resolve("mcp-oauth-client.log").toFile())
                .start();
        String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(client.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(client.exitValue())
                .as(() -> out + readLog(installed.resolve("mcp-oauth-client.log")))
                .isZero();

        JsonNode printed =
                ApiClient.JSON.readTree(out.strip().lines().reduce((a, b) -> b).orElseThrow());
        assertThat(printed.path("tools").toString()).contains("\"add_task\"", "\"list_tasks\"");
        assertThat(printed.path("result").path("isError").asBoolean(false)).isFalse();
        assertThat(printed.path("result").toString()).contains("added by a discovering client");
        // the SDK asked for a token bound to the resource the metadata named
        assertThat(printed.path("claims").path("aud").asText()).isEqualTo(resource);
        assertThat(printed.path("claims").path("iss").asText()).isEqualTo(issuer);
    }

    private static String readLog(Path log) {
        try {
            return "\n" + java.nio.file.Files.readString(log);
        } catch (IOException e) {
            return "";
        }
    }

    @Test
    void a_token_the_provider_issued_for_another_resource_is_401_with_invalid_token() throws Exception {
        String token =
                clientCredentials(openIdConfiguration().path("token_endpoint").asText(), OTHER_RESOURCE);
        assertThat(claims(token).path("aud").asText()).isEqualTo(OTHER_RESOURCE);

        var refused = mcp(token, initialize(), null);

        assertThat(refused.statusCode()).isEqualTo(401);
        JsonNode body = ApiClient.JSON.readTree(refused.body());
        assertThat(body.path("error").path("code").asText()).isEqualTo("unauthorized");
        assertThat(body.path("error").path("message").asText()).isEqualTo("token audience not accepted");
        String challenge = refused.headers().firstValue("WWW-Authenticate").orElseThrow();
        assertThat(challenge)
                .isEqualTo("Bearer resource_metadata=\"" + base()
                        + "/.well-known/oauth-protected-resource/mcp\", error=\"invalid_token\"");
    }

    @Test
    void the_api_keeps_its_own_audience_and_its_plain_challenge() throws IOException {
        // no jwt.audience: the API takes the provider's token for another resource, /mcp (its resource set) does not
        String token =
                clientCredentials(openIdConfiguration().path("token_endpoint").asText(), OTHER_RESOURCE);
        assertThat(t.api.get("/v1/sessions", token).status()).isEqualTo(200);
        assertThat(t.api.post("/mcp", token, initialize()).status()).isEqualTo(401);

        var api = t.api.get("/v1/sessions", null);
        assertThat(api.status()).isEqualTo(401);
        assertThat(api.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
    }

    @Test
    void the_metadata_is_also_at_the_root_well_known_path_and_needs_no_token() {
        var r = t.api.get("/.well-known/oauth-protected-resource", null);

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body().path("resource").asText()).isEqualTo(resource);
        assertThat(r.body().path("authorization_servers").get(0).asText()).isEqualTo(issuer);
        assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
    }

    @Test
    void without_an_identity_provider_there_is_no_metadata_and_mcp_has_the_plain_challenge() throws IOException {
        Path own = java.nio.file.Files.createDirectories(dir.resolve("hs256"));
        try (TestServer hs256Only = TestServer.start(own, TaskAgentScript.create())) {
            var metadata = hs256Only.api.get("/.well-known/oauth-protected-resource/mcp", null);
            assertThat(metadata.status()).isEqualTo(404);
            assertThat(metadata.body().path("error").path("code").asText()).isEqualTo("not_found");

            var mcp = hs256Only.api.post("/mcp", null, initialize());
            assertThat(mcp.status()).isEqualTo(401);
            assertThat(mcp.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
            var bad = hs256Only.api.post("/mcp", "not-a-token", initialize());
            assertThat(bad.status()).isEqualTo(401);
            assertThat(bad.headers().firstValue("WWW-Authenticate")).hasValue("Bearer error=\"invalid_token\"");
            // and the HS256 token still works there: no resource configured, no audience required
            assertThat(hs256Only
                            .api
                            .post("/mcp", TestServer.token("bob"), initialize())
                            .status())
                    .isEqualTo(200);
        }
    }

    @Test
    void without_a_configured_resource_the_metadata_names_the_requests_host_and_a_bad_host_is_400() throws Exception {
        ObjectNode raw = JsonNodeFactory.instance.objectNode();
        raw.putObject("jwt")
                .put("jwksUrl", openIdConfiguration().path("jwks_uri").asText())
                .put("issuer", issuer);
        Path own = java.nio.file.Files.createDirectories(dir.resolve("derived"));
        BatonConfig config = new BatonConfig(
                0,
                TestServer.sqliteUrl(own),
                TestServer.SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                TurnLimits.DEFAULTS,
                TestServer.ROLES,
                List.of(),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                raw,
                Map.of());
        try (TestServer derived =
                TestServer.start(config, LlmSimulator.start(TaskAgentScript.create()), true, Clock.systemUTC())) {
            int port = derived.server.port();
            var refused = derived.api.post("/mcp", null, initialize());
            assertThat(refused.status()).isEqualTo(401);
            assertThat(refused.headers().firstValue("WWW-Authenticate"))
                    .hasValue("Bearer resource_metadata=\"http://127.0.0.1:" + port
                            + "/.well-known/oauth-protected-resource/mcp\"");

            var metadata = derived.api.get("/.well-known/oauth-protected-resource/mcp", null);
            assertThat(metadata.status()).isEqualTo(200);
            assertThat(metadata.body().path("resource").asText()).isEqualTo("http://127.0.0.1:" + port + "/mcp");
            assertThat(metadata.headers().firstValue("Cache-Control")).hasValue("no-cache");
            // no resource configured: /mcp takes a token for any audience, as the API does (jwt.audience unset)
            String other = clientCredentials(
                    openIdConfiguration().path("token_endpoint").asText(), OTHER_RESOURCE);
            assertThat(derived.api.post("/mcp", other, initialize()).status()).isEqualTo(200);

            // a Host that is not a host name is never echoed into the metadata (Jetty refuses quotes itself; this one
            // it
            // lets through, and HttpClient will not send it)
            String answer = rawGet(port, "/.well-known/oauth-protected-resource/mcp", "evil_host");
            assertThat(answer).startsWith("HTTP/1.1 400");
            assertThat(answer)
                    .contains("\"code\":\"invalid_request\"", "the Host header is not a host name")
                    .doesNotContain("evil_host");
        }
    }

    /** One HTTP/1.1 GET with the given Host header, over a plain socket; the whole answer as text. */
    private static String rawGet(int port, String path, String host) throws IOException {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.getOutputStream()
                    .write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private String base() {
        return "http://127.0.0.1:" + t.server.port();
    }

    private JsonNode openIdConfiguration() throws IOException {
        return getJson(issuer + "/.well-known/openid-configuration");
    }

    /** The client credentials grant with an RFC 8707 resource indicator; the client authenticates with Basic. */
    private String clientCredentials(String tokenEndpoint, String forResource) throws IOException {
        String form = "grant_type=client_credentials&scope=mcp&resource="
                + URLEncoder.encode(forResource, StandardCharsets.UTF_8);
        String basic =
                Base64.getEncoder().encodeToString("mcp-client:mcp-client-secret".getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(tokenEndpoint))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Authorization", "Basic " + basic)
                .POST(HttpRequest.BodyPublishers.ofString(form)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return ApiClient.JSON.readTree(r.body()).path("access_token").asText();
    }

    private HttpResponse<String> mcp(String token, String json, String session) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base() + "/mcp"))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (token != null) b.header("Authorization", "Bearer " + token);
        if (session != null) b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18");
        return send(b);
    }

    private JsonNode getJson(String url) throws IOException {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(url)).GET());
        assertThat(r.statusCode()).as(url + ": " + r.body()).isEqualTo(200);
        return ApiClient.JSON.readTree(r.body());
    }

    private HttpResponse<String> send(HttpRequest.Builder b) {
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String initialize() {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"discovery-it\",\"version\":\"1.0.0\"}}}";
    }

    private static JsonNode claims(String jwt) throws IOException {
        return ApiClient.JSON.readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]));
    }
}
