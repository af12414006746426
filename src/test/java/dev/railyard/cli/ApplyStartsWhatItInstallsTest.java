package dev.railyard.cli;

import dev.railyard.platform.Clock;
import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The follow-ups that make installed files take effect, in order, on a scratch root taken for / (this machine's
 * systemd is not running: {@code systemctl is-system-running} says offline). Each command is recorded; enable and
 * disable also run through the real systemctl with {@code --root} (without --now, which needs a running manager), so
 * the unit's [Install] section really links it into multi-user.target and undo really unlinks it.
 */
class ApplyStartsWhatItInstallsTest {

    private final List<List<String>> ran = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    /** Records every command; systemctl enable/disable --now of railyard's own units also run offline under the root
     *  (opensm's and slurmd's units come with their packages, which a scratch root does not have). */
    private CommandRunner offline(Path root) {
        return (argv, timeout, wd, env) -> {
            ran.add(argv);
            if (argv.size() == 4 && argv.get(0).equals("systemctl") && (argv.get(1).equals("enable") || argv.get(1).equals("disable"))
                    && argv.get(2).equals("--now") && argv.get(3).startsWith("railyard-")) {
                notes.add(argv.get(1) + " with the unit file " + (Files.exists(root.resolve("etc/systemd/system/" + argv.get(3))) ? "present" : "gone"));
                return CommandRunner.system().run(List.of("systemctl", "--root=" + root, argv.get(1), argv.get(3)), Duration.ofSeconds(30));
            }
            return new CommandRunner.Result(argv, 0, "", "", false, "");
        };
    }

    private CliRun apply(Path root, String spec, String node, String... more) {
        ApplyCommand cmd = new ApplyCommand(offline(root), Clock.system());
        cmd.live = dir -> true;
        CommandLine cl = new CommandLine(cmd);
        cl.setExecutionExceptionHandler(new ExitCodes.ExceptionHandler());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        List<String> args = new ArrayList<>(List.of("--root", root.toString()));
        if (spec != null) args.addAll(List.of("--spec", spec, "--node", node));
        args.addAll(List.of(more));
        return CliRun.on(cl, args.toArray(String[]::new));
    }

    private static void requireSystemctl() {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/systemctl")) || Files.isExecutable(Path.of("/bin/systemctl")),
                "systemctl is not installed (apt-get install systemd)");
    }

    @Test
    void applyEnablesLoadsAndRestartsInOrderAndUndoDisablesWhatItEnabled(@TempDir Path root) throws IOException {
        requireSystemctl();
        Files.createDirectories(root.resolve("etc"));
        CliRun dry = apply(root, "examples/s4-h100-hdr.yaml", "compute01");
        assertThat(dry.out()).contains("--apply then runs (new unit railyard-agent.service): systemctl enable --now railyard-agent.service\n")
                .contains("--apply then runs (modules-load.d names nvidia-peermem (loaded at boot; now too)): modprobe nvidia-peermem\n");
        assertThat(ran).isEmpty();

        CliRun r = apply(root, "examples/s4-h100-hdr.yaml", "compute01", "--apply");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(ran).containsExactly(List.of("systemctl", "daemon-reload"), List.of("sysctl", "--system"),
                List.of("modprobe", "nvidia-peermem"), List.of("systemctl", "enable", "--now", "railyard-active-check.timer"),
                List.of("systemctl", "enable", "--now", "railyard-agent.service"),
                List.of("systemctl", "try-restart", "slurmd.service"));
        assertThat(r.out()).contains("ran: systemctl enable --now railyard-agent.service\n")
                .contains("not restarting networking (netplan changed)");
        assertThat(root.resolve("etc/systemd/system/multi-user.target.wants/railyard-agent.service")).isSymbolicLink();

        ran.clear();
        CliRun undo = apply(root, null, null, "--undo");
        assertThat(undo.code()).as(undo.out() + undo.err()).isZero();
        assertThat(ran).containsExactly(List.of("systemctl", "disable", "--now", "railyard-active-check.timer"),
                List.of("systemctl", "disable", "--now", "railyard-agent.service"), List.of("systemctl", "daemon-reload"));
        assertThat(notes).containsExactly("enable with the unit file present", "enable with the unit file present",
                "disable with the unit file present", "disable with the unit file present");
        assertThat(undo.out()).contains("ran: systemctl disable --now railyard-agent.service\n");
        assertThat(Files.exists(root.resolve("etc/systemd/system/multi-user.target.wants/railyard-agent.service"), java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThat(root.resolve("etc/systemd/system/railyard-agent.service")).doesNotExist();
    }

    @Test
    void noStartLeavesStartingToTheAdminAndUndoThenDisablesNothing(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("etc"));
        CliRun r = apply(root, "examples/s4-h100-hdr.yaml", "compute01", "--apply", "--no-start");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(ran).containsExactly(List.of("systemctl", "daemon-reload"), List.of("sysctl", "--system"));
        assertThat(r.out()).contains("not started (--no-start; new unit railyard-agent.service); to do it: systemctl enable --now railyard-agent.service\n")
                .contains("not started (--no-start; modules-load.d names nvidia-peermem (loaded at boot; now too)); to do it: modprobe nvidia-peermem\n");
        ran.clear();
        assertThat(apply(root, null, null, "--undo").code()).isZero();
        assertThat(ran).containsExactly(List.of("systemctl", "daemon-reload"));
    }

    @Test
    void theSubnetManagerNodeEnablesOpenSm(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("etc"));
        CliRun r = apply(root, "examples/s3-r730-ib-qdr.yaml", "r720", "--apply");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(ran).contains(List.of("systemctl", "enable", "--now", "opensm.service"))
                .doesNotContain(List.of("systemctl", "try-restart", "slurmd.service"));
        assertThat(ran.indexOf(List.of("systemctl", "daemon-reload"))).isLessThan(ran.indexOf(List.of("systemctl", "enable", "--now", "opensm.service")));
    }

    @Test
    void aChangedSlurmConfigurationRestartsSlurmdAndAChangedUnitIsRestarted(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("etc"));
        assertThat(apply(root, "examples/s4-h100-hdr.yaml", "compute01", "--apply").code()).isZero();
        Files.writeString(root.resolve("etc/slurm/gres.conf"), "# edited\n");
        Files.writeString(root.resolve("etc/systemd/system/railyard-agent.service"), "# edited\n");
        ran.clear();
        CliRun r = apply(root, "examples/s4-h100-hdr.yaml", "compute01", "--apply");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(ran).containsExactly(List.of("systemctl", "daemon-reload"), List.of("systemctl", "try-restart", "slurmd.service"),
                List.of("systemctl", "try-restart", "railyard-agent.service"));
    }
}
