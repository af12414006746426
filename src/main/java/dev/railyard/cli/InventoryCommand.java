package dev.railyard.cli;

import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.model.NodeInventory;
import dev.railyard.platform.Clock;
import dev.railyard.report.InventoryText;
import dev.railyard.report.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
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
                "  railyard inventory --format json | jq '.rdmaDevices[].ports[] | {ref: (.device+\":\"+(.port|tostring)), state}'",
                "  railyard inventory --root ./node-capture"})
public final class InventoryCommand implements Callable<Integer> {

    @Mixin
    RootOption root;

    @Mixin
    FormatOption output = new FormatOption();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        // Jackson builds its serializers in ~150 ms when cold: let it do so while the readers wait on NVML.
        Thread jsonWarmUp = output.json() ? Thread.ofPlatform().start(() -> Json.prepare(NodeInventory.class)) : null;
        NodeInventory inventory = new InventoryCollector(GpuCollector.forRoot(root.hostRoot()), Clock.system())
                .collect(root.hostRoot());
        PrintWriter out = spec.commandLine().getOut();
        if (jsonWarmUp != null) jsonWarmUp.join();
        out.print(output.json() ? Json.write(inventory) + "\n" : InventoryText.render(inventory));
        out.flush();
        return ExitCodes.OK;
    }
}
