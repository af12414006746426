package dev.railyard.cli;

import dev.railyard.collect.InfinibandCollector;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;
import dev.railyard.model.RdmaDevice;
import dev.railyard.platform.HostRoot;
import dev.railyard.platform.IoErrors;
import dev.railyard.render.InstalledSystem;
import dev.railyard.render.NodeRenderer;
import dev.railyard.render.RenderInput;
import dev.railyard.render.RenderedFile;
import dev.railyard.spec.SpecReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

@Command(name = "render",
        mixinStandardHelpOptions = true,
        description = {
                "Write every configuration file a node needs, from the cluster spec.",
                "",
                "Netplan (Ubuntu) or NetworkManager keyfiles (RHEL, os_family: rhel) for the fabric interfaces, "
                        + "sysctl.d, limits.d, modules-load.d, systemd units, /etc/nccl.conf, /etc/hosts, an ssh_config "
                        + "drop-in, Slurm node/partition lines with gres.conf and topology.conf (when the spec has slurm), "
                        + "opensm.conf on a network's subnet_manager node and a Prometheus configuration for the agents. "
                        + "Each file says in comments what it changes from the usual hand-written files and why.",
                "",
                "Files land under DIR as they would under / on the node (DIR/etc/nccl.conf). Without --node every "
                        + "node gets DIR/NODE/. railyard apply puts them in place."},
        footer = {"", "Exit codes: 0 written, 2 usage or spec error.",
                "", "Examples:",
                "  railyard render --spec cluster.yaml --node gpuserver1 --out etc-gpuserver1/",
                "  railyard render --spec cluster.yaml --node gpuserver1 --root / --out out/",
                "  railyard render --spec cluster.yaml --out rendered/"})
public final class RenderCommand implements Callable<Integer> {

    @Option(names = "--spec", required = true, paramLabel = "FILE", description = "The cluster spec.")
    Path specFile;

    @Option(names = "--node", paramLabel = "NAME", description = "Render this node only (default: every node, each in DIR/NODE).")
    String node;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where to write the files.")
    Path out;

    @Option(names = "--root", paramLabel = "DIR",
            description = "Read the node's RDMA inventory (RoCE v2 GID index, port GUID) under DIR: an unpacked "
                    + "'railyard capture', or / for this machine. Needs --node.")
    Path root;

    @Option(names = "--agent-port", paramLabel = "PORT", defaultValue = "" + RenderInput.DEFAULT_AGENT_PORT,
            description = "Port the agents serve /metrics on (default: ${DEFAULT-VALUE}).")
    int agentPort;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        ClusterSpec cluster = SpecFiles.load(specFile);
        if (root != null && node == null) {
            throw new RailyardException.Usage("--root reads one node's inventory and needs --node", "add --node NAME");
        }
        if (agentPort < 1 || agentPort > 65535) throw new RailyardException.Usage("--agent-port " + agentPort + " is not a port", "1..65535");
        PrintWriter w = spec.commandLine().getOut();
        List<String> names = node != null ? List.of(SpecFiles.nodeName(cluster, node)) : cluster.nodes().stream().map(ClusterSpec.Node::name).toList();
        // every node's files first, then a look at where they go, then the writes: a file in the way of a directory
        // (--out naming a file, DIR/NODE a file) is refused before anything is written, not half-way through
        Map<Path, List<RenderedFile>> byDir = new LinkedHashMap<>();
        for (String name : names) {
            Optional<List<RdmaDevice>> rdma = Optional.ofNullable(root).map(r -> new InfinibandCollector().collect(hostRoot(r)));
            InstalledSystem system = root != null ? InstalledSystem.read(hostRoot(root)) : InstalledSystem.unknown();
            byDir.put(node != null ? out : out.resolve(name), NodeRenderer.all().render(cluster, name, rdma, agentPort, system));
        }
        byDir.forEach(RenderCommand::refuseWhatIsInTheWay);
        for (Map.Entry<Path, List<RenderedFile>> e : byDir.entrySet()) {
            Path dir = e.getKey();
            try {
                NodeRenderer.write(dir, e.getValue());
            } catch (IOException ex) {
                throw new RailyardException.Usage("cannot write under " + dir + ": " + IoErrors.describe(ex)
                        + (ex instanceof java.nio.file.FileSystemException f && f.getFile() != null ? " (" + f.getFile() + ")" : ""),
                        "give an --out directory that is writable and has room");
            }
            for (RenderedFile f : e.getValue()) w.println(f.modeOctal() + "  " + dir.resolve(f.path()));
        }
        w.flush();
        return ExitCodes.OK;
    }

    /** A file where a directory must go (or a directory where a file must go) stops the render before any write. */
    private static void refuseWhatIsInTheWay(Path dir, List<RenderedFile> files) {
        for (RenderedFile f : files) {
            Path target = dir.resolve(f.path());
            if (Files.isDirectory(target)) {
                throw new RailyardException.Usage("cannot write " + target + ": it is a directory", "remove it or choose another --out");
            }
            for (Path p = target.getParent(); p != null; p = p.getParent()) {
                if (Files.exists(p) && !Files.isDirectory(p)) {
                    throw new RailyardException.Usage("cannot write under " + p + ": it is a file, not a directory",
                            "--out names a directory (created if missing): choose another, or move " + p + " away");
                }
            }
        }
    }

    private static HostRoot hostRoot(Path r) {
        if (!Files.isDirectory(r)) throw new RailyardException.Usage("--root " + r + " is not a directory", "unpack a capture first");
        return r.toAbsolutePath().normalize().equals(Path.of("/")) ? HostRoot.live() : HostRoot.at(r);
    }
}
