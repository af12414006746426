package dev.railyard.cli;

import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.model.NodeInventory;
import dev.railyard.platform.Clock;
import dev.railyard.platform.HostRoot;
import dev.railyard.platform.Timings;
import dev.railyard.report.InventoryJson;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * {@code railyard inventory} of this machine, started in main before picocli builds its command model: the readers
 * (NVML's load and init above all) run while picocli builds its command model (reflection run for the first time,
 * 44-74 ms on the GPU machines even with its classes in the AOT cache). Started only when the arguments can mean
 * nothing else; the command uses it only when its parsed options say this machine, and otherwise collects as usual.
 * With {@code --format json} the document is written here too, on its own thread as soon as the readers are done.
 */
final class InventoryPrefetch {

    /** Arguments after which picocli does not run inventory on this machine. */
    private static final List<String> NOT_LIVE = List.of("--root", "-h", "--help", "-V", "--version");

    private final FutureTask<NodeInventory> inventory;
    private final Optional<FutureTask<String>> json;

    private InventoryPrefetch(FutureTask<NodeInventory> inventory, Optional<FutureTask<String>> json) {
        this.inventory = inventory;
        this.json = json;
    }

    /** Starts the inventory when {@code args} ask for one of this machine; empty otherwise. */
    static Optional<InventoryPrefetch> startIfLiveInventory(String[] args, Timings timings) {
        String command = null;
        for (String a : args) {
            for (String n : NOT_LIVE) {
                if (a.equals(n) || a.startsWith(n + "=")) return Optional.empty();
            }
            if (command == null && !a.startsWith("-")) command = a;
        }
        if (!"inventory".equals(command)) return Optional.empty();
        // first of all, before the other readers are built: NVML's load and init begin the longest path
        GpuCollector gpus = GpuCollector.loadingNow(timings);
        boolean json = false;
        for (int i = 0; i < args.length; i++) {
            json |= args[i].equals("--format=json") || (args[i].equals("--format") && i + 1 < args.length
                    && args[i + 1].equals("json"));
        }
        FutureTask<NodeInventory> task = new FutureTask<>(() -> timings.time("collect (all readers)", () ->
                new InventoryCollector(gpus, Clock.system(), timings)
                        .collect(HostRoot.live())));
        // daemons: a usage error exits without waiting for NVML
        Thread.ofPlatform().daemon().name("railyard-collect").start(task);
        Optional<FutureTask<String>> document = Optional.empty();
        if (json) {
            // written by hand (InventoryJson), not by Jackson: no serializers to build, no accessors to reflect
            FutureTask<String> write = new FutureTask<>(() -> {
                NodeInventory inventory = get(task);
                return timings.time("JSON write", () -> InventoryJson.write(inventory) + "\n");
            });
            Thread.ofPlatform().daemon().name("railyard-json").start(write);
            document = Optional.of(write);
        }
        return Optional.of(new InventoryPrefetch(task, document));
    }

    NodeInventory inventory() {
        return get(inventory);
    }

    /** The JSON document of {@link #inventory()} with its newline, when the arguments asked for JSON. */
    Optional<String> json() {
        return json.map(InventoryPrefetch::get);
    }

    private static <T> T get(FutureTask<T> task) {
        try {
            return task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while collecting the inventory", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) throw re;
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(e.getCause());
        }
    }
}
