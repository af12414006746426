package dev.railyard.agent;

import dev.railyard.nativelib.FakeNvmlLibrary;
import dev.railyard.testing.RealTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's status page in a real headless Chromium (Debian's): the DOM Chromium builds shows the node's health,
 * each component, the findings with their fixes and the sparklines, with no console errors; a screenshot is taken
 * (and copied to docs/ when RAILYARD_DOCS_SCREENSHOT names a file).
 */
class StatusPageBrowserTest {

    @Test
    void chromiumRendersHealthComponentsFindingsAndSparklines(@TempDir Path tree, @TempDir Path lib, @TempDir Path profile)
            throws Throwable {
        Path chromium = RealTool.require("chromium", "chromium");
        try (FakeNvmlLibrary nvml = FakeNvmlLibrary.build(lib)) {
            AgentTree t = new AgentTree(tree);
            Agent agent = t.agent(Optional.empty(), Optional.of(nvml.path()), Duration.ofMinutes(5), Optional.empty());
            for (int i = 0; i < 30; i++) {
                t.write(AgentTree.PORT + "/counters/symbol_error", (i / 5) + "\n");
                agent.tick();
                t.clock.advance(Duration.ofSeconds(1));
            }
            try (AgentHttpServer server = new AgentHttpServer(new InetSocketAddress("127.0.0.1", 0), agent, Optional.empty(),
                    Duration.ofMinutes(1), t.clock::now)) {
                server.start();
                String url = "http://127.0.0.1:" + server.address().getPort() + "/";
                Path png = profile.resolve("status.png");
                Run dom = chromium(chromium, profile, "--dump-dom", url);
                Run shot = chromium(chromium, profile, "--screenshot=" + png, "--window-size=1280,1100", url);

                assertThat(dom.stdout()).contains("<span id=\"health\" class=\"UNHEALTHY\">UNHEALTHY</span>")
                        .contains("<table id=\"components\">").contains("mlx5_0:1")
                        .contains("gpu.ecc.uncorrected").contains("<svg class=\"spark\"").contains("<polyline")
                        .contains("td code{white-space:pre-wrap}")
                        .as("a fix keeps one command a line").contains("<code># drain the node first; send the GPU for "
                                + "hardware inspection (RMA) if errors recur\ndcgmi diag -r 3</code>");
                assertThat(dom.stderr()).as("console errors").doesNotContainPattern("(?i)CONSOLE.*(error|uncaught)");
                assertThat(shot.exit()).isZero();
                assertThat(Files.size(png)).isGreaterThan(10_000);
                String docs = System.getenv("RAILYARD_DOCS_SCREENSHOT");
                if (docs != null) Files.copy(png, Path.of(docs), StandardCopyOption.REPLACE_EXISTING);
            }
            t.kernelLog.close();
        }
    }

    record Run(int exit, String stdout, String stderr) {}

    private static Run chromium(Path chromium, Path profile, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--enable-logging=stderr", "--v=0",
                "--user-data-dir=" + profile.resolve("chrome")));
        argv.addAll(List.of(args));
        Path err = Files.createTempFile(profile, "chromium", ".err");
        Process p = new ProcessBuilder(argv).redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium hung");
        }
        return new Run(p.exitValue(), out, Files.readString(err));
    }
}
