package dev.railyard.render;

import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The weekly active check for S4 (eight H100 nodes under Slurm): the timer and its service verified by the real
 * systemd-analyze in a scratch root holding systemd's own units, the sbatch script parsed by the real bash.
 */
class ActiveCheckRenderTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private final CommandRunner runner = CommandRunner.system();

    private static String content(List<RenderedFile> files, String path) {
        return files.stream().filter(f -> f.path().equals(path)).findFirst().orElseThrow().content();
    }

    @Test
    void systemdAnalyzeVerifiesTheTimerAndItsService(@TempDir Path tmp) throws IOException {
        Path analyze = RealTools.require("systemd-analyze", "systemd");
        Path systemUnits = Path.of("/usr/lib/systemd/system");
        if (!Files.isDirectory(systemUnits)) RealTools.unavailable("no /usr/lib/systemd/system to verify against");
        Path root = tmp.resolve("root");
        Files.createDirectories(root.resolve("usr/lib/systemd/system"));
        try (Stream<Path> all = Files.list(systemUnits)) {
            for (Path p : all.toList()) {
                if (Files.isRegularFile(p)) Files.copy(p, root.resolve("usr/lib/systemd/system").resolve(p.getFileName().toString()));
            }
        }
        for (String program : List.of(SystemdRenderer.RAILYARD_BIN.substring(1), "bin/sh")) {
            Path p = root.resolve(program);
            Files.createDirectories(p.getParent());
            Files.writeString(p, "#!/bin/sh\nexit 0\n");
            p.toFile().setExecutable(true);
        }
        List<RenderedFile> files = Examples.render("s4-h100-hdr", "compute01");
        for (String unit : List.of(ActiveCheckRenderer.SERVICE, ActiveCheckRenderer.TIMER)) {
            Path p = root.resolve(unit);
            Files.createDirectories(p.getParent());
            Files.writeString(p, content(files, unit));
        }
        CommandRunner.Result r = runner.run(List.of(analyze.toString(), "verify", "--root=" + root,
                "/" + ActiveCheckRenderer.TIMER, "/" + ActiveCheckRenderer.SERVICE), TIMEOUT);
        assertThat(r.ok()).as(r.stdout() + r.stderr()).isTrue();
        assertThat(r.stderr()).as("systemd-analyze warnings").isBlank();
        assertThat(content(files, ActiveCheckRenderer.SERVICE)).contains("ExecCondition=/bin/sh -c '! fuser -s /dev/nvidia[0-9]*'",
                "ExecStart=/usr/local/bin/railyard validate --quick --db /var/lib/railyard/history.db");

        // the same verify refuses a timer that names no time, so the pass above is the tool's judgement
        Files.writeString(root.resolve(ActiveCheckRenderer.TIMER), "[Timer]\nOnCalendar=someday\n");
        CommandRunner.Result bad = runner.run(List.of(analyze.toString(), "verify", "--root=" + root,
                "/" + ActiveCheckRenderer.TIMER), TIMEOUT);
        assertThat(bad.stdout() + bad.stderr()).contains("someday");
    }

    @Test
    void theSlurmScriptParsesAndRunsValidateInTheMaintenanceReservation(@TempDir Path tmp) throws IOException {
        Path bash = RealTools.require("bash", "bash");
        List<RenderedFile> files = Examples.render("s4-h100-hdr", "compute01");
        String script = content(files, ActiveCheckRenderer.SBATCH);
        Path p = tmp.resolve("active-check.sbatch");
        Files.writeString(p, script);
        CommandRunner.Result r = runner.run(List.of(bash.toString(), "-n", p.toString()), TIMEOUT);
        assertThat(r.ok()).as(r.stderr()).isTrue();
        assertThat(script).startsWith("#!/bin/bash\n").contains("#SBATCH --reservation=railyard-maint",
                "#SBATCH --nodes=8", "Flags=MAINT,WEEKLY,IGNORE_JOBS Nodes=compute[01-08]",
                "--launcher slurm --quick --db /var/lib/railyard/history.db");
        // a cluster without Slurm gets the timer only
        assertThat(Examples.render("s1-homelab-v100-roce", "gpuserver1")).extracting(RenderedFile::path)
                .contains(ActiveCheckRenderer.TIMER).doesNotContain(ActiveCheckRenderer.SBATCH);
    }
}
