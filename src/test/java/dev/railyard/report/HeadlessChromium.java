package dev.railyard.report;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Level;

/**
 * Debian's chromium driven through its chromedriver, both named by path so Selenium Manager never looks for (or
 * downloads) a browser. Missing packages skip the test with the install command, except in CI (CI=true), where
 * .ci/run installs them and their absence is a failure.
 */
final class HeadlessChromium implements AutoCloseable {

    /**
     * Selenium warns on every start that it has no DevTools classes for this Chromium's version; the tests use
     * none, so the warning is noise in the build log. Held here: a logger with no strong reference is forgotten.
     */
    private static final java.util.logging.Logger DEVTOOLS_LOG = quiet("org.openqa.selenium.devtools");

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private final ChromeDriverService service;
    final ChromeDriver driver;

    private HeadlessChromium(ChromeDriverService service, ChromeDriver driver) {
        this.service = service;
        this.driver = driver;
    }

    /** Starts a fresh browser with its own profile under {@code profileDir} and a window of the given size. */
    static HeadlessChromium start(Path profileDir, int width, int height) throws Exception {
        requireInstalled();
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .withLogFile(profileDir.resolveSibling(profileDir.getFileName() + "-chromedriver.log").toFile())
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-extensions", "--user-data-dir=" + Files.createDirectories(profileDir),
                "--window-size=" + width + "," + height);
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        service.start();
        try {
            ChromeDriver driver = new ChromeDriver(service, options);
            driver.manage().window().setSize(new Dimension(width, height));
            return new HeadlessChromium(service, driver);
        } catch (RuntimeException e) {
            service.stop();
            throw e;
        }
    }

    static void requireInstalled() {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        String message = "needs Debian's chromium and chromium-driver (" + CHROMIUM + ", " + CHROMEDRIVER
                + "): apt-get install -y chromium chromium-driver";
        if (!present && "true".equals(System.getenv("CI"))) throw new AssertionError("CI: " + message);
        Assumptions.assumeTrue(present, message);
    }

    String url(Path file) {
        return file.toAbsolutePath().toUri().toString();
    }

    /** Closes the browser and stops chromedriver, so no process outlives the test. */
    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
        }
    }

    /** The whole page as PNG, beyond the window's height (Chrome DevTools' captureBeyondViewport). */
    byte[] fullPage() {
        Number width = (Number) driver.executeScript("return document.documentElement.scrollWidth");
        Number height = (Number) driver.executeScript("return document.documentElement.scrollHeight");
        java.util.Map<String, Object> shot = driver.executeCdpCommand("Page.captureScreenshot", java.util.Map.of(
                "format", "png", "captureBeyondViewport", true,
                "clip", java.util.Map.of("x", 0, "y", 0, "width", width, "height", height, "scale", 1)));
        return java.util.Base64.getDecoder().decode((String) shot.get("data"));
    }

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(Level.SEVERE);
        return logger;
    }
}
