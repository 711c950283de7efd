package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The web chat page: served without a token, locked down by its headers, and no hole in the API's auth. */
class WebPageIT {

    private static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'";

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
            assertThat(r.raw()).contains("<script src=\"/app.js\"></script>", "href=\"/app.css\"", "id=\"sim-banner\"");
        }
    }

    @Test
    void the_page_has_no_inline_code_the_policy_would_refuse_and_never_writes_data_as_html() {
        String html = t.api.get("/", null).raw();
        String js = t.api.get("/app.js", null).raw();

        // every <script> loads a file; no inline handlers or styles (the CSP would block them silently)
        assertThat(html.split("<script").length - 1).isEqualTo(1);
        assertThat(html).doesNotContainPattern("\\son[a-z]+=").doesNotContain("style=", "http://", "https://");
        assertThat(js).doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(");
        assertThat(js).contains("textContent", "text/event-stream", "/v1/agents", "/cancel", "/readyz");
    }

    @Test
    void script_and_style_are_served_with_their_content_types() {
        ApiClient.Response js = t.api.get("/app.js", null);
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
    void unknown_static_paths_still_get_the_json_404() {
        for (String path : new String[] {"/app.jsx", "/web/index.html", "/favicon.ico", "/index.htm"}) {
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
