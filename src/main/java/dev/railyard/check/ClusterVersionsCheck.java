package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeFacts;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * cluster.versions: the GPU driver, CUDA, NCCL and each HCA's firmware must be the same on every node; NCCL ranks of
 * different versions can hang at init, and a mixed driver fleet is how one node ends up slow. The odd
 * nodes out are named against the version most nodes run.
 */
public final class ClusterVersionsCheck implements ClusterCheck {

    static final String ID = CheckId.CLUSTER_VERSIONS.id();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(ClusterInput in) {
        List<Finding> out = new ArrayList<>();
        out.addAll(compare(in, "GPU driver", NodeFacts::driverVersion, Severity.FAIL, (node, want) -> Fix.lines(
                Fix.note("on " + node + ": install NVIDIA driver " + want + " as the other nodes have (the distribution's "
                        + "nvidia-driver package of that version, or NVIDIA's installer), then reboot; the driver now:"),
                "nvidia-smi --query-gpu=driver_version --format=csv,noheader")));
        out.addAll(compare(in, "CUDA", NodeFacts::cudaVersion, Severity.FAIL, (node, want) -> Fix.lines(
                Fix.note("on " + node + ": the CUDA version comes with the driver: install the driver the other nodes "
                        + "have (CUDA " + want + "); the CUDA version now:"),
                "nvidia-smi | grep -o 'CUDA Version: [0-9.]*'")));
        out.addAll(compare(in, "NCCL", NodeFacts::ncclVersion, Severity.FAIL, (node, want) -> Fix.lines(
                Fix.note("on " + node + ": install NCCL " + want + " as the other nodes have (the libnccl2 package of "
                        + "that version); the NCCL libraries now:"),
                "ldconfig -p | grep libnccl")));
        TreeSet<String> devices = new TreeSet<>();
        in.facts().values().forEach(f -> devices.addAll(f.rdmaFirmware().keySet()));
        for (String dev : devices) {
            out.addAll(compare(in, dev + " firmware", f -> f.rdmaFirmware().getOrDefault(dev,
                    Reading.absent("no RDMA device " + dev)), Severity.WARN, (node, want) -> Fix.lines(
                    Fix.note("on " + node + ": flash " + dev + " with firmware " + want + " as the other nodes have "
                            + "(mlxfwmanager -i with that image for the board's PSID), then reboot; the firmware now:"),
                    "cat " + ShellWord.of("/sys/class/infiniband/" + dev + "/fw_ver"),
                    "mlxfwmanager --query")));
        }
        return out;
    }

    /** {@code fix} is given the odd node and the version most nodes have. */
    private static List<Finding> compare(ClusterInput in, String what, Function<NodeFacts, Reading<String>> read,
                                         Severity mismatch, BiFunction<String, String, String> fix) {
        Map<String, String> versions = new LinkedHashMap<>();
        List<String> unread = new ArrayList<>();
        for (String node : nodes(in)) {
            var facts = in.factsOf(node);
            if (facts.isEmpty()) {
                unread.add(node + ": " + in.whyMissing(node));
                continue;
            }
            Reading<String> r = read.apply(facts.get());
            if (r instanceof Reading.Present<String>(String v)) versions.put(node, v);
            else unread.add(node + ": " + r.describe());
        }
        String subject = what;
        if (versions.isEmpty()) {
            // no node has it: a CPU-only cluster, or an inventory that does not report it
            return List.of(Finding.of(ID, Severity.INFO, subject, "not compared: " + unread.getFirst(), "the same on every node", ""));
        }
        Map<String, List<String>> byVersion = versions.entrySet().stream().collect(Collectors.groupingBy(
                Map.Entry::getValue, LinkedHashMap::new, Collectors.mapping(Map.Entry::getKey, Collectors.toList())));
        String common = byVersion.entrySet().stream().max((a, b) -> Integer.compare(a.getValue().size(), b.getValue().size()))
                .orElseThrow().getKey();
        List<Finding> out = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : byVersion.entrySet()) {
            if (e.getKey().equals(common)) continue;
            for (String node : e.getValue()) {
                out.add(Finding.of(ID, mismatch, subject + " on " + node, e.getKey(),
                        common + " (as on " + byVersion.get(common).size() + " of " + versions.size() + " nodes)",
                        fix.apply(node, common)));
            }
        }
        if (!unread.isEmpty()) {
            out.add(Finding.of(ID, Severity.UNKNOWN, subject, "not read on " + String.join("; ", unread),
                    "the same on every node", ""));
        }
        if (out.isEmpty()) {
            out.add(Finding.pass(ID, subject, common + " on all " + versions.size() + " nodes", "the same on every node"));
        }
        return out;
    }

    private static List<String> nodes(ClusterInput in) {
        List<String> all = new ArrayList<>(in.spec().nodes().stream().map(n -> n.name()).toList());
        in.facts().keySet().stream().filter(n -> !all.contains(n)).forEach(all::add);
        return all;
    }
}
