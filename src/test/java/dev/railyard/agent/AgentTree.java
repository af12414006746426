package dev.railyard.agent;

import dev.railyard.check.CheckRunner;
import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.collect.SourceReads;
import dev.railyard.model.ClusterSpec;
import dev.railyard.nativelib.FfmNvml;
import dev.railyard.platform.HostRoot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A writable copy of the real gpud H100 node tree (8 ConnectX-7 NDR ports plus a BlueField bond) with a hostname
 * and a kernel log, and an agent over it, for tests that flip files and watch the health change.
 */
final class AgentTree {

    static final String PORT = "sys/class/infiniband/mlx5_0/ports/1";

    final Path root;
    final SteppedClock clock = new SteppedClock();
    KernelLogFollower kernelLog;
    /** The inventory's slow parts are re-read every this many samples (the agent's --reread over --interval). */
    int rereadEvery = 1;
    /** Sources read each within this deadline, as the agent does; empty reads them inline. */
    Optional<SourceReads> reads = Optional.empty();
    /** A GPU reader to use instead of the tree's (one that hangs, as NVML stuck in the driver does). */
    Optional<GpuCollector> gpuCollector = Optional.empty();

    AgentTree(Path dir) throws IOException {
        this.root = dir;
        copy(Path.of("src/test/resources/sysfs/gpud-h100"), dir);
        // the capture lacks lid/sm_lid; a live IB port behind a subnet manager has both
        try (Stream<Path> ports = Files.list(dir.resolve("sys/class/infiniband"))) {
            for (Path device : ports.toList()) {
                Path port = device.resolve("ports/1");
                if (!Files.readString(port.resolve("link_layer")).strip().equals("InfiniBand")) continue;
                Files.writeString(port.resolve("lid"), "0x5\n");
                Files.writeString(port.resolve("sm_lid"), "0x1\n");
            }
        }
        addEthernet(dir);
        Files.createDirectories(dir.resolve("proc/sys/kernel"));
        Files.writeString(dir.resolve("proc/sys/kernel/hostname"), "n1\n");
        Files.createDirectories(dir.resolve("railyard"));
        Files.writeString(dir.resolve("railyard/dmesg.txt"), "[    0.000000] Linux version 6.8.0 (buildd@lcy02)\n");
        this.kernelLog = KernelLogFollower.start(HostRoot.at(dir));
    }

    /** The gpud capture has no sys/class/net: one physical NIC, eth0 on PCI 0000:00:03.0, carrier up. */
    static final String ETH0 = "sys/devices/pci0000:00/0000:00:03.0/net/eth0";

    private static void addEthernet(Path dir) throws IOException {
        addNic(dir, "eth0", "0000:00:03.0");
    }

    /** Another physical NIC, {@code name} on PCI {@code pci} (a name the kernel allows, shell syntax included). */
    void addNic(String name, String pci) throws IOException {
        addNic(root, name, pci);
    }

    private static void addNic(Path dir, String name, String pci) throws IOException {
        Path nd = dir.resolve("sys/devices/pci0000:00/" + pci + "/net/" + name);
        Files.createDirectories(nd);
        Files.createDirectories(dir.resolve("sys/class/net"));
        Files.createSymbolicLink(dir.resolve("sys/class/net").resolve(name), Path.of("../../devices/pci0000:00/" + pci + "/net/" + name));
        Files.createSymbolicLink(nd.resolve("device"), Path.of("../../../" + pci));
        Files.writeString(nd.resolve("carrier_changes"), "2\n");
        Files.writeString(nd.resolve("carrier"), "1\n");
        Files.writeString(nd.resolve("operstate"), "up\n");
        Files.writeString(nd.resolve("mtu"), "1500\n");
    }

    /** As an agent restarted with {@code state}: a new follower reads the kernel log from its start. */
    void restartKernelLog(Optional<AgentStateFile> state) {
        kernelLog.close();
        kernelLog = KernelLogFollower.start(HostRoot.at(root), state);
    }

    Sampler sampler(Optional<ClusterSpec> spec, Optional<Path> nvml) {
        HostRoot host = HostRoot.at(root);
        GpuCollector gpus = gpuCollector.orElseGet(() -> nvml.map(p -> GpuCollector.keepingOpen(() -> FfmNvml.open(p)))
                .orElse(GpuCollector.forRoot(host)));
        return new Sampler(host, new InventoryCollector(gpus, kernelLog, clock, rereadEvery), CheckRunner.nodeChecks(),
                List.of(new CounterRateDetector(10), new LinkDropDetector(Duration.ofSeconds(30), Duration.ofMinutes(10), 6),
                        new LinkFlapDetector(Duration.ofMinutes(10), 6),
                        new KernelLinkEventDetector(kernelLog, Duration.ofMinutes(10), 6), new PcieReplayDetector(100),
                        new ThermalDetector(85, Duration.ofMinutes(1)), new GpuPresenceDetector()),
                spec, "n1", clock, reads);
    }

    Agent agent(Optional<ClusterSpec> spec, Optional<Path> nvml, Duration holdDown, Optional<SlurmDrainPolicy> slurm) {
        return new Agent(sampler(spec, nvml), new HealthTracker("n1", holdDown), slurm, kernelLog, clock, Duration.ofSeconds(1));
    }

    void write(String relative, String content) throws IOException {
        Files.writeString(root.resolve(relative), content);
    }

    void appendKernelLog(String line) throws IOException {
        Files.writeString(root.resolve("railyard/dmesg.txt"), line + "\n", java.nio.file.StandardOpenOption.APPEND);
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
