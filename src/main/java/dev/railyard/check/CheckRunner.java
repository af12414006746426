package dev.railyard.check;

import dev.railyard.model.Finding;
import dev.railyard.platform.NaturalOrder;

import java.util.Comparator;
import java.util.List;

/** Runs every node-level check and sorts the findings worst first, then by ID and subject (mlx5_2 before mlx5_10). */
public final class CheckRunner {

    /** Worst first; within a severity by ID, then subject in natural order. */
    public static final Comparator<Finding> WORST_FIRST =
            Comparator.comparing(Finding::severity, Comparator.reverseOrder())
                    .thenComparing(Finding::id)
                    .thenComparing(Finding::subject, NaturalOrder.INSTANCE);

    private final List<Check> checks;

    public CheckRunner(List<Check> checks) {
        this.checks = List.copyOf(checks);
    }

    /** Every node-level check of the catalog, in catalog order. */
    public static CheckRunner nodeChecks() {
        return new CheckRunner(List.of(
                new HostMemlockCheck(), new HostNetBuffersCheck(), new CpuGovernorCheck(), new KernelModuleCheck(),
                new GpuSpecCheck(), new GpuEccCheck(), new GpuThermalCheck(), new GpuPcieLinkCheck(),
                new GpuNvlinkCheck(), new GpuXidCheck(),
                new RdmaPortCheck(), new RdmaRateCheck(), new RoceGidCheck(), new FabricNetdevCheck(),
                new RdmaLagCheck(), new RdmaCountersCheck(), new CarrierCheck(),
                new GpuNicAffinityCheck(), new RailCountCheck()));
    }

    public List<Check> checks() {
        return checks;
    }

    public List<Finding> run(CheckInput in) {
        return Finding.merged(checks.stream().flatMap(c -> c.run(in).stream()).toList()).stream().sorted(WORST_FIRST)
                .toList();
    }

    /**
     * Whether a --only prefix can select anything: it is the start of a check's ID ("rdma." of "rdma.port") or lies
     * under one ("gpu.xid" under "gpu.xid", "gpu.temperature" under "gpu").
     */
    public boolean selectsAny(String prefix) {
        return checks.stream().flatMap(c -> c.ids().stream())
                .anyMatch(id -> id.startsWith(prefix) || prefix.equals(id) || prefix.startsWith(id + "."));
    }

    /** The check IDs (or their common prefixes), sorted, for a message listing what --only accepts. */
    public List<String> idPrefixes() {
        return checks.stream().flatMap(c -> c.ids().stream()).distinct().sorted().toList();
    }

    /** Keep findings whose ID starts with one of the prefixes ("rdma." or "gpu.xid"); all when none given. */
    public static List<Finding> only(List<Finding> findings, List<String> prefixes) {
        if (prefixes.isEmpty()) return findings;
        return findings.stream().filter(f -> prefixes.stream().anyMatch(p -> f.id().startsWith(p))).toList();
    }
}
