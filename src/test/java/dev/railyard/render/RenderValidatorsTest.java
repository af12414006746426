package dev.railyard.render;

import dev.railyard.model.ClusterSpec;
import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rendered files of every node of the four example systems, read by the programs that read them on a node:
 * netplan generate, promtool check config and systemd-analyze verify. Each validator is also shown a broken file,
 * so a validator that accepts everything cannot pass these tests.
 */
class RenderValidatorsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private final CommandRunner runner = CommandRunner.system();

    @Test
    void netplanGeneratesNetworkdConfigurationForEveryUbuntuNode(@TempDir Path tmp) throws IOException {
        Path netplan = RealTools.require("netplan", "netplan.io");
        int checked = 0;
        for (String example : Examples.ALL) {
            ClusterSpec spec = Examples.spec(example);
            for (ClusterSpec.Node node : spec.nodes()) {
                List<RenderedFile> files = Examples.render(example, node.name());
                if (files.stream().noneMatch(f -> f.path().equals(NetplanRenderer.PATH))) continue;
                Path root = tmp.resolve(example + "-" + node.name());
                NodeRenderer.write(root, files);
                CommandRunner.Result r = runner.run(List.of(netplan.toString(), "generate", "--root-dir", root.toString()), TIMEOUT);
                assertThat(r.ok()).as("%s %s: %s%s", example, node.name(), r.stdout(), r.stderr()).isTrue();
                assertThat(r.stderr()).as("netplan warnings for %s", node.name()).isBlank();
                for (RenderInput.Bound b : new RenderInput(spec, node, java.util.Optional.empty(), 1).fabric()) {
                    Path network = root.resolve("run/systemd/network/10-netplan-" + b.binding().netdev() + ".network");
                    assertThat(network).as("networkd file for %s", b.binding().netdev()).exists();
                    String text = Files.readString(network);
                    assertThat(text).contains("RequiredForOnline=no");
                    b.cidr().ifPresent(c -> assertThat(text).contains("Address=" + c));
                    b.network().mtu().ifPresent(m -> assertThat(text + readIfExists(root, b)).contains("MTUBytes=" + m));
                }
                checked++;
            }
        }
        assertThat(checked).as("Ubuntu nodes in the examples").isEqualTo(2 + 2 + 8);

        Path broken = tmp.resolve("broken");
        NodeRenderer.write(broken, List.of(new RenderedFile(NetplanRenderer.PATH,
                "network:\n  version: 2\n  ethernets:\n    ens6:\n      mtu: nine-thousand\n", RenderedFile.PRIVATE)));
        assertThat(runner.run(List.of(netplan.toString(), "generate", "--root-dir", broken.toString()), TIMEOUT).ok()).isFalse();
    }

    /** networkd puts the MTU in the .link file when the interface is matched by name, in the .network file otherwise. */
    private static String readIfExists(Path root, RenderInput.Bound b) {
        Path link = root.resolve("run/systemd/network/10-netplan-" + b.binding().netdev() + ".link");
        try {
            return Files.exists(link) ? Files.readString(link) : "";
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void promtoolAcceptsTheScrapeConfiguration(@TempDir Path tmp) throws IOException {
        Path promtool = RealTools.require("promtool", "prometheus");
        for (String example : Examples.ALL) {
            ClusterSpec spec = Examples.spec(example);
            List<RenderedFile> files = Examples.render(example, spec.nodes().getFirst().name());
            Path dir = tmp.resolve(example);
            NodeRenderer.write(dir, files);
            Path yml = dir.resolve(PrometheusRenderer.PATH);
            CommandRunner.Result r = runner.run(List.of(promtool.toString(), "check", "config", yml.toString()), TIMEOUT);
            assertThat(r.ok()).as("%s: %s%s", example, r.stdout(), r.stderr()).isTrue();
            assertThat(Files.readString(yml)).contains(spec.nodes().getLast().address() + ":" + RenderInput.DEFAULT_AGENT_PORT);
        }
        Path bad = tmp.resolve("bad.yml");
        Files.writeString(bad, "scrape_configs:\n  - job_name: railyard\n    scrape_interval: 5 seconds\n");
        assertThat(runner.run(List.of(promtool.toString(), "check", "config", bad.toString()), TIMEOUT).ok()).isFalse();
    }

    /**
     * systemd-analyze verify inside a scratch root (--root) holding a copy of systemd's own units and stand-ins for
     * the programs the units start: verify checks that ExecStart programs exist, and railyard is not installed here.
     */
    @Test
    void systemdAnalyzeVerifiesTheUnits(@TempDir Path tmp) throws IOException {
        Path analyze = RealTools.require("systemd-analyze", "systemd");
        Path systemUnits = Path.of("/usr/lib/systemd/system");
        if (!Files.isDirectory(systemUnits)) RealTools.unavailable("no /usr/lib/systemd/system to verify against (apt-get install systemd)");
        Path root = tmp.resolve("root");
        copyUnits(systemUnits, root.resolve("usr/lib/systemd/system"));
        executable(root.resolve(SystemdRenderer.RAILYARD_BIN.substring(1)));
        executable(root.resolve("usr/sbin/ip"));
        executable(root.resolve("bin/sh"));
        List<String> units = new ArrayList<>();
        for (String example : Examples.ALL) {
            for (ClusterSpec.Node node : Examples.spec(example).nodes()) {
                for (RenderedFile f : Examples.render(example, node.name())) {
                    if (!f.path().endsWith(".service")) continue;
                    String unitName = example + "-" + node.name() + "-" + Path.of(f.path()).getFileName();
                    Path p = root.resolve("etc/systemd/system").resolve(unitName);
                    Files.createDirectories(p.getParent());
                    Files.writeString(p, f.content());
                    units.add("/etc/systemd/system/" + unitName);
                }
            }
        }
        assertThat(units).anyMatch(u -> u.endsWith("railyard-netdevs-down.service")).anyMatch(u -> u.endsWith("railyard-agent.service"));
        List<String> argv = new ArrayList<>(List.of(analyze.toString(), "verify", "--root=" + root));
        argv.addAll(units);
        CommandRunner.Result r = runner.run(argv, TIMEOUT);
        assertThat(r.ok()).as(r.stdout() + r.stderr()).isTrue();
        assertThat(r.stderr()).as("systemd-analyze warnings").isBlank();

        Path bad = root.resolve("etc/systemd/system/bad.service");
        Files.writeString(bad, "[Service]\nType=oneshot\nRestart=sometimes\nExecStart=/usr/sbin/ip link\n");
        CommandRunner.Result b = runner.run(List.of(analyze.toString(), "verify", "--root=" + root, "/etc/systemd/system/bad.service"), TIMEOUT);
        assertThat(b.stderr()).contains("restart specifier").contains("sometimes");
    }

    /**
     * The slurmd drop-in, merged by systemd into Debian's slurmd.service with its own LimitMEMLOCK line taken out (a
     * node whose unit lacks it, the only one that gets the drop-in): the dump shows the unlimited limit.
     */
    @Test
    void systemdMergesTheSlurmdDropIn(@TempDir Path tmp) throws IOException {
        Path analyze = RealTools.require("systemd-analyze", "systemd");
        Path slurmd = Path.of("/usr/lib/systemd/system/slurmd.service");
        if (!Files.isRegularFile(slurmd)) RealTools.unavailable("no slurmd.service to merge the drop-in into (apt-get install slurmd)");
        Path root = tmp.resolve("root");
        copyUnits(slurmd.getParent(), root.resolve("usr/lib/systemd/system"));
        executable(root.resolve("usr/sbin/slurmd"));
        executable(root.resolve("bin/kill"));
        Path unit = root.resolve("usr/lib/systemd/system/slurmd.service");
        Files.writeString(unit, Files.readString(unit).replace("LimitMEMLOCK=infinity\n", ""));
        InstalledSystem lacking = new InstalledSystem(java.util.Optional.empty(), java.util.Optional.empty(),
                java.util.Optional.of(Files.readString(unit)));
        RenderedFile dropIn = Examples.file(NodeRenderer.all().render(Examples.spec("s4-h100-hdr"), "compute01", java.util.Optional.empty(),
                RenderInput.DEFAULT_AGENT_PORT, lacking), SystemdRenderer.SLURMD_DROPIN);
        Path p = root.resolve(dropIn.path());
        Files.createDirectories(p.getParent());
        Files.writeString(p, dropIn.content());
        CommandRunner.Result r = runner.run(List.of(analyze.toString(), "verify", "--root=" + root, "/usr/lib/systemd/system/slurmd.service"),
                TIMEOUT, tmp, java.util.Map.of("SYSTEMD_LOG_LEVEL", "debug"));
        assertThat(r.ok()).as(r.stdout() + r.stderr()).isTrue();
        assertThat(r.stdout() + r.stderr()).contains("DropIn Path: " + p).contains("LimitMEMLOCK: 18446744073709551615");
    }

    private static void executable(Path p) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\nexit 0\n");
        p.toFile().setExecutable(true);
    }

    /** systemd's own unit files (aliases as copies), without the .wants and .d directories verify does not need. */
    private static void copyUnits(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> all = Files.list(from)) {
            for (Path p : all.toList()) {
                if (Files.isRegularFile(p)) Files.copy(p, to.resolve(p.getFileName().toString()));
            }
        }
    }
}
