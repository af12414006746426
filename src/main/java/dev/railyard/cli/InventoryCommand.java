package dev.railyard.cli;

import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.model.NodeInventory;
import dev.railyard.platform.Clock;
import dev.railyard.platform.HostRoot;
import dev.railyard.platform.Timings;
import dev.railyard.report.InventoryText;
import dev.railyard.report.InventoryJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;

@Command(name = "inventory",
        mixinStandardHelpOptions = true,
        description = {
                "Show what is on this node: GPUs, RDMA ports and GIDs, NICs, PCIe affinity, host tuning.",
                "",
                "What is on this node: GPUs (through NVML), RDMA devices, ports and GIDs, network interfaces, "
                        + "GPU-NIC PCIe affinity, and host tuning (memlock, socket buffers, governor, modules, NVMe).",
                "",
                "Each field is shown as read, as absent with the reason, or as failed with the path and cause. "
                        + "On a machine with none of this it prints what it found and exits 0."},
        footer = {"", "Examples:",
                "  railyard inventory",
                "  railyard inventory --format json | jq '.gpu.gpus[].memory.value.totalBytes'",
                "  railyard inventory --root ./node-capture"})
public final class InventoryCommand implements Callable<Integer> {

    @Mixin
    RootOption root;

    @Mixin
    FormatOption output = new FormatOption();

    @Option(names = "--timings", description = "Print where the time went (JVM start, CLI, each reader, NVML, output) "
            + "to standard error; RAILYARD_TIMINGS=1 does the same.")
    boolean timingsWanted;

    @Spec
    CommandSpec spec;

    private final Timings timings;
    private final Optional<InventoryPrefetch> prefetch;

    public InventoryCommand() {
        this(Timings.off(), Optional.empty());
    }

    /** With Main's timings, which started before picocli did, and the inventory it may have started then. */
    InventoryCommand(Timings timings, Optional<InventoryPrefetch> prefetch) {
        this.timings = timings;
        this.prefetch = prefetch;
    }

    @Override
    public Integer call() throws InterruptedException {
        HostRoot host = root.hostRoot();
        Optional<InventoryPrefetch> started = host.isLive() ? prefetch : Optional.empty();
        Optional<String> written = output.json() ? started.flatMap(p -> {
            long waiting = System.nanoTime();
            Optional<String> json = p.json();
            timings.record("waiting for the JSON written beside picocli", waiting);
            return json;
        }) : Optional.empty();
        String text = written.isPresent() ? written.get() : render(host, started);
        PrintWriter out = spec.commandLine().getOut();
        timings.time("print", () -> {
            out.print(text);
            out.flush();
        });
        return ExitCodes.OK;
    }

    /** The inventory collected here (or taken from main's prefetch) and rendered as asked. */
    private String render(HostRoot host, Optional<InventoryPrefetch> started) throws InterruptedException {
        NodeInventory inventory;
        if (started.isPresent()) {
            long waiting = System.nanoTime();
            inventory = started.get().inventory();
            timings.record("waiting for the inventory started in main", waiting);
        } else {
            inventory = timings.time("collect (all readers)", () ->
                    new InventoryCollector(GpuCollector.forRoot(host), Clock.system(), timings).collect(host));
        }
        return timings.time(output.json() ? "JSON write" : "text render",
                () -> output.json() ? InventoryJson.write(inventory) + "\n" : InventoryText.render(inventory, Terminal.style()));
    }
}
