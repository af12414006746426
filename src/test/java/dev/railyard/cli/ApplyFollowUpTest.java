package dev.railyard.cli;

import dev.railyard.platform.Clock;
import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commands apply runs after writing on a node's own / (here a scratch root taken for /, with a stand-in runner):
 * one that fails is reported with what it printed and a command to run, and the run does not end 0.
 */
class ApplyFollowUpTest {

    private final List<List<String>> ran = new ArrayList<>();

    private CliRun apply(Path root, CommandRunner runner) {
        ApplyCommand cmd = new ApplyCommand(runner, Clock.system());
        cmd.live = dir -> true; // a scratch root taken for this machine's /: the follow-ups run (through the stand-in)
        CommandLine cl = new CommandLine(cmd);
        cl.setExecutionExceptionHandler(new ExitCodes.ExceptionHandler());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        return CliRun.on(cl, "--spec", "examples/s4-h100-hdr.yaml", "--node", "compute01", "--root", root.toString(), "--apply");
    }

    private CommandRunner failing(String program, int code, String stderr) {
        return (argv, timeout, wd, env) -> {
            ran.add(argv);
            boolean fail = argv.getFirst().equals(program);
            return new CommandRunner.Result(argv, fail ? code : 0, "", fail ? stderr : "", false, "");
        };
    }

    @Test
    void aFailingSysctlIsReportedWithItsOutputAndTheRunIsNotASuccess(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("etc"));
        CliRun r = apply(root, failing("sysctl", 255, "sysctl: setting key \"net.core.rmem_max\": Read-only file system"));
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.PREREQUISITE);
        assertThat(r.out()).contains("FAILED (exit 255: sysctl: setting key \"net.core.rmem_max\": Read-only file system): sysctl --system")
                .contains("ran: systemctl daemon-reload")
                .contains("not restarting networking");
        assertThat(r.err()).contains("railyard: the files were written, but 'sysctl --system' failed (exit 255: sysctl: setting key")
                .contains("hint: fix the cause it names, then run: sysctl --system; or put the old files back: railyard apply --undo");
        assertThat(ran).startsWith(List.of("systemctl", "daemon-reload"), List.of("sysctl", "--system"));
    }

    @Test
    void aMissingSystemctlIsReportedAndTheRunIsNotASuccess(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("etc"));
        CommandRunner runner = (argv, timeout, wd, env) -> argv.getFirst().equals("systemctl")
                ? new CommandRunner.Result(argv, -1, "", "", false, "systemctl: not found on PATH")
                : new CommandRunner.Result(argv, 0, "", "", false, "");
        CliRun r = apply(root, runner);
        assertThat(r.code()).isEqualTo(ExitCodes.PREREQUISITE);
        assertThat(r.err()).contains("'systemctl daemon-reload' failed (systemctl: not found on PATH)");
    }

    @Test
    void followUpsThatSucceedEndZero(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("etc"));
        CliRun r = apply(root, failing("none", 0, ""));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("ran: sysctl --system").contains("ran: systemctl daemon-reload");
    }
}
