package dev.baton.server.it;

import static dev.baton.server.it.McpFixture.q;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.npm.NpmPackages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A prompt of a connected MCP server (server-everything's {@code args-prompt}) used as a slash-command in the web app,
 * in a real browser: "/" offers the prompts the user may use, choosing one asks for its argument, and the text its
 * server rendered lands in the message box, not sent. Screenshots go to {@code target/screenshots/webapp/}.
 */
class SlashCommandsBrowserIT {
    static final Path SHOTS = Path.of("target", "screenshots", "webapp");

    @TempDir
    static Path dir;

    static TestServer t;
    static ChromeDriver browser;
    static WebDriverWait wait;

    @BeforeAll
    static void start() throws IOException {
        Chromium.Installation chromium = Chromium.require();
        Files.createDirectories(SHOTS);
        String node = NpmPackages.node();
        Path everything = NpmPackages.script("@modelcontextprotocol/server-everything", "dist/index.js");
        String yaml = """
                mcp:
                  servers:
                    everything: { command: %s, args: [%s, stdio], state: shared, sharedWith: [student] }
                """.formatted(q(node), q(everything));
        String agent = """
                id: helper
                name: Helper
                model: simulator:default
                systemPrompt: You help.
                """;
        t = TestServer.start(
                McpFixture.config(dir, yaml, Map.of("helper", agent), Map.of()),
                LlmSimulator.start(SimulatorScript.builder()
                        .whenUserSays("hello", Reply.text("Hello!"))
                        .build()),
                true,
                Clock.systemUTC());
        browser = Chromium.start(chromium, Files.createDirectories(dir.resolve("profile")), 1280, 860);
        wait = new WebDriverWait(browser, Duration.ofSeconds(20));
    }

    @AfterAll
    static void stop() {
        if (browser != null) browser.quit();
        if (t != null) t.close();
    }

    @Test
    void a_prompt_chosen_after_a_slash_is_rendered_with_its_argument_into_the_message_box() {
        signIn(TestServer.token("alice", "student"));
        WebElement message = wait.until(ExpectedConditions.elementToBeClickable(By.id("message")));

        message.sendKeys("/args");
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("slash-menu")));
        WebElement option = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".slash-option")));
        assertThat(option.getText()).contains("/everything:args-prompt");
        assertThat(option.getAttribute("aria-selected")).isEqualTo("true");
        assertThat(message.getAttribute("aria-expanded")).isEqualTo("true");
        shot("slash-01-menu");

        // Enter chooses the prompt (it does not send "/args"); its argument is asked for in a dialog
        message.sendKeys(Keys.ENTER);
        WebElement city = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("prompt-arg-0")));
        assertThat(text("#prompt-args-fields label")).isEqualTo("city (required)");
        // the optional argument has no description: nothing but its label and field
        assertThat(text("#prompt-args-fields")).isEqualTo("city (required)Name of the citystate");
        city.sendKeys("Lyon");
        shot("slash-02-arguments");
        browser.findElement(By.id("prompt-args-ok")).click();

        wait.until(d -> message.getAttribute("value").contains("Lyon"));
        assertThat(message.getAttribute("value")).contains("weather", "Lyon");
        assertThat(browser.findElement(By.id("slash-menu")).isDisplayed()).isFalse();
        // put in the box for the user to read, not sent: no conversation was started
        assertThat(browser.findElements(By.cssSelector("#log .message.user"))).isEmpty();
        assertThat(t.simulator.requestCount()).isZero();
        shot("slash-03-rendered");

        // a user who may not use the server is offered nothing
        signIn(TestServer.token("pat", "plain"));
        WebElement patMessage = wait.until(ExpectedConditions.elementToBeClickable(By.id("message")));
        patMessage.sendKeys("/");
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#slash-menu .slash-empty")));
        assertThat(text("#slash-menu")).isEqualTo("No MCP server you may use offers prompts.");
        assertThat(browser.findElements(By.cssSelector(".slash-option"))).isEmpty();
    }

    private static void signIn(String token) {
        browser.get("http://127.0.0.1:" + t.server.port() + "/");
        ((JavascriptExecutor) browser).executeScript("localStorage.setItem('baton.token', arguments[0])", token);
        browser.navigate().refresh();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("app")));
    }

    private static String text(String css) {
        Object text = ((JavascriptExecutor) browser)
                .executeScript("return arguments[0].textContent.trim()", browser.findElement(By.cssSelector(css)));
        return text == null ? "" : text.toString();
    }

    private static void shot(String name) {
        try {
            Files.write(SHOTS.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
