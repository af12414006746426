package dev.railyard.cli;

import dev.railyard.collect.InfinibandCollector;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;
import dev.railyard.model.RdmaDevice;
import dev.railyard.platform.HostRoot;
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
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
                        + "Each file says in comments what it changes from the seeds' hand-written files and why.",
                "",
                "Files land under DIR as they would under / on the node (DIR/etc/nccl.conf). Without --node every "
                        + "node gets DIR/NODE/. railyard apply puts them in place."},
        footer = {"", "Exit codes: 0 written, 2 usage or spec error.",
                "", "Examples:",
                "  railyard render --spec cluster.yaml --node gpuserver1 --out etc-gpuserver1/",
                "  railyard render --spec cluster.yaml --node gpuserver1 --root / --out out/   # GID index from this machine",
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
        for (String name : names) {
            Optional<List<RdmaDevice>> rdma = Optional.ofNullable(root).map(r -> new InfinibandCollector().collect(hostRoot(r)));
            List<RenderedFile> files = NodeRenderer.all().render(cluster, name, rdma, agentPort);
            Path dir = node != null ? out : out.resolve(name);
            try {
                NodeRenderer.write(dir, files);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            for (RenderedFile f : files) w.println(f.modeOctal() + "  " + dir.resolve(f.path()));
        }
        w.flush();
        return ExitCodes.OK;
    }

    private static HostRoot hostRoot(Path r) {
        if (!Files.isDirectory(r)) throw new RailyardException.Usage("--root " + r + " is not a directory", "unpack a capture first");
        return r.toAbsolutePath().normalize().equals(Path.of("/")) ? HostRoot.live() : HostRoot.at(r);
    }
}
