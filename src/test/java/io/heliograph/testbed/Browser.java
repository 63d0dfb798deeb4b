package io.heliograph.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.stream.Stream;

import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.remote.RemoteWebDriver;

/**
 * A headless Chromium driven through WebDriver: Debian's {@code chromedriver} started by this class on
 * a free loopback port, Debian's {@code chromium} started by it with a private profile directory, and
 * Selenium's {@link RemoteWebDriver} as the client (so Selenium never looks for or downloads a browser
 * of its own). Closing quits the browser, then ends chromedriver and anything either left running by
 * pid, and deletes the profile.
 *
 * <p>Screenshots go to the test's artifact directory (see {@link ArtifactDirectory}), as does
 * chromedriver's log.
 */
public final class Browser implements AutoCloseable {

    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration DRIVER_START = Duration.ofSeconds(20);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final Process chromedriver;
    private final Path profile;
    private final Path artifacts;
    private final RemoteWebDriver driver;
    private final Thread shutdownHook;
    /** Browser processes seen while running: chromium's zygote can outlive its parent, so they are remembered. */
    private final List<ProcessHandle> seen = new ArrayList<>();

    private Browser(Process chromedriver, Path profile, Path artifacts, RemoteWebDriver driver) {
        this.chromedriver = chromedriver;
        this.profile = profile;
        this.artifacts = artifacts;
        this.driver = driver;
        this.shutdownHook = new Thread(this::close, "browser-stop-" + chromedriver.pid());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts chromedriver and a headless Chromium with a {@code width} x {@code height} window. */
    public static Browser start(Path artifacts, int width, int height) {
        for (Path binary : List.of(CHROMIUM, CHROMEDRIVER)) {
            if (!Files.isExecutable(binary)) {
                throw new IllegalStateException(binary + " is missing: install Debian's chromium and chromium-driver"
                        + " (deploy/heliograph test does)");
            }
        }
        int port = ControllerProcess.freePort();
        Path profile;
        Process chromedriver;
        try {
            profile = Files.createTempDirectory("heliograph-chromium-");
            chromedriver = new ProcessBuilder(CHROMEDRIVER.toString(), "--port=" + port,
                    "--log-path=" + artifacts.resolve("chromedriver.log"))
                    .redirectErrorStream(true)
                    .redirectOutput(artifacts.resolve("chromedriver.out").toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + CHROMEDRIVER, e);
        }
        try {
            Poll.until("chromedriver listening on port " + port, DRIVER_START, () -> {
                if (!chromedriver.isAlive()) {
                    throw new IllegalStateException("chromedriver exited with " + chromedriver.exitValue()
                            + "; see " + artifacts.resolve("chromedriver.out"));
                }
                return ControllerProcess.acceptsConnections(port);
            });
            RemoteWebDriver driver = new RemoteWebDriver(loopback(port), options(profile, width, height));
            driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
            return new Browser(chromedriver, profile, artifacts, driver);
        } catch (RuntimeException | Error e) {
            stop(chromedriver, List.of());
            deleteTree(profile);
            throw e;
        }
    }

    private static ChromeOptions options(Path profile, int width, int height) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check",
                "--user-data-dir=" + profile, "--window-size=" + width + "," + height);
        // the page's console, for consoleErrors()
        options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
        if ("root".equals(System.getProperty("user.name"))) {
            options.addArguments("--no-sandbox"); // Chromium refuses to run as root with its sandbox
        }
        return options;
    }

    public WebDriver driver() {
        return driver;
    }

    public void open(URI address) {
        driver.get(address.toString());
    }

    /** Runs {@code script} in the page ({@code return ...} gives the result) with {@code arguments}. */
    public Object script(String script, Object... arguments) {
        rememberProcesses();
        return ((JavascriptExecutor) driver).executeScript(script, arguments);
    }

    /**
     * Runs {@code script} in the page and waits for it to call its last argument, {@code done}, whose
     * argument is the result: {@code arguments[arguments.length - 1](value)}.
     */
    public Object asyncScript(String script, Object... arguments) {
        rememberProcesses();
        return ((JavascriptExecutor) driver).executeAsyncScript(script, arguments);
    }

    /**
     * Opens the web UI of {@code controller} and logs in as its administrator, with the password the
     * controller wrote to its data directory; returns once the navigation shows.
     */
    public void logIn(ControllerProcess controller) {
        ControllerProcess.Credentials admin = controller.credentials(Duration.ofSeconds(30));
        open(URI.create("http://127.0.0.1:" + controller.httpPort() + "/"));
        Poll.until("the login form", Duration.ofSeconds(30), () -> find("#login"), WebElement::isDisplayed);
        logIn(admin.user(), admin.password());
        Poll.until("the navigation after logging in", Duration.ofSeconds(30), () -> find("#nav"),
                WebElement::isDisplayed);
    }

    /** Fills in the login form that shows and submits it. */
    public void logIn(String user, String password) {
        WebElement userField = find("#login input[name=user]");
        userField.clear();
        userField.sendKeys(user);
        WebElement passwordField = find("#login input[name=password]");
        passwordField.clear();
        passwordField.sendKeys(password);
        find("#login button[type=submit]").click();
    }

    /** Opens page {@code hash} of the logged-in UI ({@code #/switches}, say) and waits for the shell to route it. */
    public void openPage(String hash) {
        script("location.hash = arguments[0]", hash);
        Poll.until("the UI to show " + hash, Duration.ofSeconds(30),
                () -> (String) script("return document.getElementById('page').dataset.route || ''"),
                hash::equals);
    }

    /**
     * What the page reported as errors since the previous call (or since the browser started): its
     * {@code console.error} calls, uncaught exceptions and rejections, and the requests that failed or
     * were answered with an error status ("... Failed to load resource: the server responded with a
     * status of 404"), one line each.
     */
    public List<String> consoleErrors() {
        rememberProcesses();
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(LogEntry::getMessage).toList();
    }

    public WebElement find(String cssSelector) {
        return driver.findElement(By.cssSelector(cssSelector));
    }

    /** Saves what the window shows as {@code <name>.png} in the artifact directory. */
    public Path screenshot(String name) {
        Path file = artifacts.resolve(name.replaceAll("[^A-Za-z0-9._-]", "_") + ".png");
        try {
            Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save screenshot " + file, e);
        }
        return file;
    }

    /** The pid of chromedriver, whose children are the browser's processes. */
    public long driverPid() {
        return chromedriver.pid();
    }

    private void rememberProcesses() {
        synchronized (seen) {
            chromedriver.descendants().filter(p -> !seen.contains(p)).forEach(seen::add);
        }
    }

    /** Quits the browser, ends chromedriver and every browser process seen, by pid, and deletes the profile. */
    @Override
    public void close() {
        rememberProcesses();
        try {
            driver.quit();
        } catch (RuntimeException e) {
            // the browser may be gone already; the processes are ended below either way
        }
        List<ProcessHandle> browserProcesses;
        synchronized (seen) {
            browserProcesses = List.copyOf(seen);
        }
        stop(chromedriver, browserProcesses);
        deleteTree(profile);
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // closing from the hook itself
        }
    }

    private static void stop(Process chromedriver, List<ProcessHandle> browserProcesses) {
        List<ProcessHandle> all = new ArrayList<>(browserProcesses);
        chromedriver.descendants().filter(p -> !all.contains(p)).forEach(all::add);
        chromedriver.destroy();
        try {
            if (!chromedriver.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                chromedriver.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            chromedriver.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        for (ProcessHandle process : all) {
            process.destroyForcibly();
        }
        for (ProcessHandle process : all) {
            process.onExit().completeOnTimeout(process, STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS).join();
        }
    }

    private static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the browser profile " + dir, e);
        }
    }

    private static URL loopback(int port) {
        try {
            return URI.create("http://127.0.0.1:" + port).toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }
}
