package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The web chat page: served without a token, locked down by its headers, and no hole in the API's auth. */
class WebPageIT {

    private static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
            + "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    private static final List<String> MODULES = List.of(
            "app",
            "api",
            "errors",
            "markdown",
            "chat",
            "turn",
            "messages",
            "tool-card",
            "sidebar",
            "signin",
            "admin",
            "dom",
            "message-actions",
            "starters",
            "export",
            "theme");

    @TempDir
    static Path dir;

    static TestServer t;

    @BeforeAll
    static void start() {
        t = TestServer.start(
                dir, SimulatorScript.builder().always(Reply.text("hello")).build());
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    @Test
    void the_page_is_served_at_the_root_without_a_token_with_a_strict_content_security_policy() {
        for (String path : new String[] {"/", "/index.html"}) {
            ApiClient.Response r = t.api.get(path, null);

            assertThat(r.status()).as(path).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("text/html"));
            assertThat(r.headers().firstValue("Content-Security-Policy")).hasValue(CSP);
            assertThat(r.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
            assertThat(r.raw())
                    .contains(
                            "<script type=\"module\" src=\"/js/app.js\"></script>",
                            "href=\"/app.css\"",
                            "id=\"sim-banner\"");
        }
    }

    @Test
    void the_page_has_no_inline_code_the_policy_would_refuse_and_never_writes_data_as_html() {
        String html = t.api.get("/", null).raw();
        String js = MODULES.stream()
                .map(m -> t.api.get("/js/" + m + ".js", null).raw())
                .collect(Collectors.joining("\n"));

        // every <script> loads a file of this origin; no inline handlers or styles (the CSP would block them)
        assertThat(html.split("<script").length - 1)
                .isEqualTo(html.split("<script( type=\"module\"| defer)? src=\"/").length - 1)
                .isEqualTo(4);
        assertThat(html).doesNotContainPattern("\\son[a-z]+=").doesNotContain("style=", "http://", "https://");
        assertThat(js).doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(");
        assertThat(js).contains("textContent", "text/event-stream", "/v1/agents", "/cancel", "/readyz");
        // the one place markup is made from an answer: markdown, sanitised, with raw HTML shown as text
        assertThat(t.api.get("/js/markdown.js", null).raw())
                .contains("DOMPurify", "RETURN_DOM_FRAGMENT", "noopener noreferrer", "escapeHtml(token.text)");
    }

    @Test
    void script_and_style_are_served_with_their_content_types() {
        ApiClient.Response js = t.api.get("/js/app.js", null);
        ApiClient.Response css = t.api.get("/app.css", null);

        assertThat(js.status()).isEqualTo(200);
        assertThat(js.headers().firstValue("Content-Type"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("text/javascript"));
        assertThat(js.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(css.status()).isEqualTo(200);
        assertThat(css.headers().firstValue("Content-Type"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("text/css"));
        assertThat(css.headers().firstValue("Content-Security-Policy")).hasValue(CSP);
    }

    @Test
    void the_libraries_come_from_their_webjars_and_a_revalidation_is_a_304() throws Exception {
        for (String path :
                new String[] {"/vendor/marked.js", "/vendor/purify.js", "/vendor/highlight.js", "/vendor/chart.js"}) {
            ApiClient.Response r = t.api.get(path, null);

            assertThat(r.status()).as(path).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("text/javascript"));
            assertThat(r.raw().length()).as(path).isGreaterThan(10_000);
            String etag = r.headers().firstValue("ETag").orElseThrow();
            HttpResponse<String> again = revalidate(path, etag);
            assertThat(again.statusCode()).as(path).isEqualTo(304);
            assertThat(again.body()).isEmpty();
        }
        assertThat(t.api.get("/vendor/highlight.css", null).headers().firstValue("Content-Type"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("text/css"));
    }

    private static HttpResponse<String> revalidate(String path, String etag) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + t.server.port() + path))
                            .header("If-None-Match", etag)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    void a_server_with_a_configured_secret_offers_no_development_sign_in() {
        ApiClient.Response settings = t.api.get("/web/settings", null);
        ApiClient.Response devToken = t.api.post("/web/dev-token", null, "{}");

        assertThat(settings.status()).isEqualTo(200);
        assertThat(settings.headers().firstValue("Content-Security-Policy")).hasValue(CSP);
        assertThat(settings.body().path("devSignIn").path("available").asBoolean())
                .isFalse();
        assertThat(settings.body().path("devSignIn").path("reason").asText())
                .contains("configured secret or identity provider");
        assertThat(settings.body().path("images").asText()).isEqualTo("block");
        assertThat(devToken.status()).isEqualTo(404);
        assertThat(devToken.body().path("error").path("code").asText()).isEqualTo("not_found");
    }

    @Test
    void unknown_static_paths_still_get_the_json_404() {
        for (String path : new String[] {
            "/app.js", "/app.jsx", "/web/index.html", "/favicon.ico", "/index.htm", "/js/missing.js", "/vendor/x.js"
        }) {
            ApiClient.Response r = t.api.get(path, null);

            assertThat(r.status()).as(path).isEqualTo(404);
            assertThat(r.body().path("error").path("code").asText()).as(path).isEqualTo("not_found");
        }
    }

    @Test
    void the_api_behind_the_page_still_needs_a_token() {
        ApiClient.Response anonymous = t.api.get("/v1/agents", null);
        ApiClient.Response withToken = t.api.get("/v1/agents", TestServer.token("pat"));

        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.body().path("error").path("code").asText()).isEqualTo("unauthorized");
        assertThat(withToken.status()).isEqualTo(200);
        assertThat(withToken.body().path("agents").isArray()).isTrue();
    }

    @Test
    void readiness_tells_the_page_when_answers_come_from_the_simulator() {
        ApiClient.Response r = t.api.get("/readyz", null);

        assertThat(r.body().path("checks").path("model").asText()).isEqualTo("simulator");
    }
}
