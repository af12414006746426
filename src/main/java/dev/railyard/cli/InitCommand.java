package dev.railyard.cli;

import dev.railyard.platform.IoErrors;
import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.RailyardException;
import dev.railyard.platform.Clock;
import dev.railyard.platform.HostRoot;
import dev.railyard.spec.SpecReader;
import dev.railyard.spec.SpecWriter;
import dev.railyard.spec.StarterSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;

@Command(name = "init",
        mixinStandardHelpOptions = true,
        description = {
                "Write a starter cluster spec (YAML) from this node's inventory.",
                "",
                "Write a starter cluster spec from this node's inventory: this node, its GPUs "
                        + "(model, count, driver, CUDA), one compute network per ACTIVE RDMA port (link "
                        + "layer, rate, MTU, netdev, address, device:port) and a guess at the management "
                        + "network, with comments, and TODOs where the other nodes go.",
                "",
                "The spec goes to standard output unless --out names a file."},
        footer = {"", "Examples:",
                "  railyard init > cluster.yaml",
                "  railyard init --name homelab-v100 --out cluster.yaml",
                "  railyard init --root ./node-capture"})
public final class InitCommand implements Callable<Integer> {

    @Mixin
    RootOption root;

    @Option(names = "--name", paramLabel = "NAME", description = "The cluster's name (default: a TODO placeholder).")
    String name;

    @Option(names = "--out", paramLabel = "FILE", description = "Write the spec to FILE instead of standard output.")
    Path out;

    @Option(names = "--force", description = "Overwrite FILE given with --out if it exists.")
    boolean force;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (out != null && Files.exists(out) && !force) {
            throw new RailyardException.Usage(out + " already exists; not overwriting it",
                    "add --force to replace it, or choose another --out file");
        }
        HostRoot hostRoot = root.hostRoot();
        NodeInventory inventory = new InventoryCollector(GpuCollector.forRoot(hostRoot), Clock.system())
                .collect(hostRoot);
        StarterSpec starter = StarterSpec.from(inventory, Optional.ofNullable(name));
        String origin = inventory.hostname() + (hostRoot.isLive() ? "" : " (read under " + hostRoot + ")");
        String yaml = new SpecWriter().writeStarter(starter, origin);
        // A starter that does not read back would fail the user's first 'railyard check': refuse to hand it out.
        new SpecReader().read("railyard init output", yaml);
        PrintWriter stdout = spec.commandLine().getOut();
        if (out == null) {
            stdout.print(yaml);
        } else {
            try {
                Files.writeString(out, yaml, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new RailyardException.Usage("cannot write " + out + ": " + IoErrors.describe(e),
                        "check that the directory exists and is writable", e);
            }
            stdout.println("wrote " + out + " (" + starter.todos().size() + " TODOs); next: railyard check --spec "
                    + out);
        }
        stdout.flush();
        return ExitCodes.OK;
    }
}
