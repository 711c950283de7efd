package dev.baton.server.it;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium for the browser tests: Debian's {@code chromium} and {@code chromium-driver}, installed with
 * apt-get when missing and the tests run as root. Without them the tests are skipped with a message on a developer's
 * machine, and fail under {@code CI=true}, where a skipped browser test would hide a broken page. Selenium is given
 * both paths, so it never looks for (or downloads) a browser or driver of its own.
 */
final class Chromium {

    record Installation(Path browser, Path driver) {}

    private static final List<String> BROWSERS = List.of("chromium", "chromium-browser");
    private static final List<String> DRIVERS = List.of("chromedriver", "chromium-driver");

    private Chromium() {}

    /** The installed browser and driver, installing them first when possible. */
    static Installation require() {
        Optional<Installation> found = locate();
        if (found.isEmpty() && isRoot() && onPath("apt-get").isPresent()) {
            install();
            found = locate();
        }
        if (found.isPresent()) return found.get();
        String message = "no chromium and chromedriver found: install them with "
                + "'apt-get install -y chromium chromium-driver' (as root) to run the web app's browser tests";
        if ("true".equals(System.getenv("CI"))) fail(message);
        Assumptions.abort(message);
        throw new AssertionError("unreachable");
    }

    /**
     * A headless browser with a fresh profile in {@code profile}, its console kept for the test to read.
     *
     * @param width the window's width in CSS pixels
     */
    static ChromeDriver start(Installation chromium, Path profile, int width, int height) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.browser().toFile());
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-dev-shm-usage",
                "--user-data-dir=" + profile.toAbsolutePath(),
                "--window-size=" + width + "," + height,
                "--lang=en-GB");
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromium.driver().toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }

    private static Optional<Installation> locate() {
        Optional<Path> browser =
                BROWSERS.stream().flatMap(b -> onPath(b).stream()).findFirst();
        Optional<Path> driver =
                DRIVERS.stream().flatMap(d -> onPath(d).stream()).findFirst();
        return browser.isPresent() && driver.isPresent()
                ? Optional.of(new Installation(browser.get(), driver.get()))
                : Optional.empty();
    }

    private static Optional<Path> onPath(String name) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        return Stream.concat(Stream.of(path.split(":")), Stream.of("/usr/bin", "/usr/lib/chromium"))
                .map(dir -> Path.of(dir, name))
                .filter(Files::isExecutable)
                .findFirst();
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** apt-get install, after an apt-get update when the package lists do not know the packages yet. */
    private static void install() {
        if (!run("apt-get", "install", "-y", "-q", "chromium", "chromium-driver")) {
            run("apt-get", "update", "-q");
            run("apt-get", "install", "-y", "-q", "chromium", "chromium-driver");
        }
    }

    private static boolean run(String... command) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
            Process p = builder.start();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
