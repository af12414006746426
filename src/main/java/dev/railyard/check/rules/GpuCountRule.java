package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * gpu.count: the GPUs a node has against those it should have. The node check compares the count and model with the
 * spec's gpus for the node (its own entry in a mixed cluster); the agent, without a spec, compares with the GPUs it
 * has seen. A missing GPU gets one fix whichever path found it, naming the GPU's address where the path knows it.
 */
public final class GpuCountRule implements Rule {

    public static final CheckId ID = CheckId.GPU_COUNT;
    public static final String SEEN = "every GPU seen since the agent started";

    GpuCountRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "GPUs found (NVML, nvidia-smi, PCI) and their model names against the spec's gpus for the node; "
                + "NVIDIA functions on PCI, the loaded modules; the agent: GPUs seen before";
    }

    @Override
    public String thresholds() {
        return "the spec's per-node count and model (a node's own gpus entry, else the cluster's)";
    }

    @Override
    public String severities() {
        return "fewer or more than the spec, another model: FAIL; a PCI function that may be a GPU, a model "
                + "unread: UNKNOWN; no spec: INFO; the agent: a GPU gone: FAIL, no GPU read at all: UNKNOWN";
    }

    @Override
    public String fix() {
        return "a missing GPU: its PCI function, nvidia-smi's list and the kernel's lines, then a reboot and the "
                + "seating; no driver: load it; more GPUs or another model: the spec or --node";
    }

    /**
     * The node's count against the spec's: {@code found} GPUs, {@code unidentified} PCI functions that may be GPUs,
     * {@code onPci} NVIDIA GPUs on the bus and whether no driver is loaded (NVML silent, no nvidia module).
     */
    public static Verdict count(int found, Optional<ClusterSpec.Gpus> want, List<String> unidentified, long onPci,
                                boolean noDriver) {
        if (want.isEmpty()) return new Verdict(ID, Severity.INFO, found + " GPUs", "no spec to compare", "");
        ClusterSpec.Gpus w = want.get();
        String expected = w.perNode() + " x " + w.model();
        if (!unidentified.isEmpty()) {
            // a function whose vendor/class is garbage may or may not be one of the GPUs: the count cannot be judged
            return new Verdict(ID, Severity.UNKNOWN, found + " GPUs; PCI identity unreadable, may be GPUs: "
                    + String.join(", ", unidentified), expected, "");
        }
        if (found > w.perNode()) {
            return new Verdict(ID, Severity.FAIL, found + " GPUs", expected, Fix.lines(Fix.note("more GPUs than the "
                    + "spec gives this node: correct its gpus.per_node (its own gpus entry in a mixed cluster), or "
                    + "--node if this is another node"), "nvidia-smi -L"));
        }
        if (found == w.perNode()) return new Verdict(ID, Severity.PASS, found + " GPUs", expected, "");
        // without a loaded driver NVML lists nothing: say that first rather than send the user to reseat GPUs
        if (noDriver && onPci == 0) {
            return new Verdict(ID, Severity.FAIL, found + " GPUs: no NVIDIA GPU on the PCI bus and no NVIDIA driver "
                    + "loaded", expected, Fix.lines(Fix.note("the GPUs are not seated or powered, or this is not the "
                    + "node the spec means (--node)"), "lspci -nn -d 10de:"));
        }
        if (noDriver) {
            return new Verdict(ID, Severity.FAIL, found + " GPUs (" + onPci + " NVIDIA GPUs on PCI): no NVIDIA "
                    + "driver loaded", expected, GpuDriverRule.LOAD_DRIVER);
        }
        return new Verdict(ID, Severity.FAIL, found + " GPUs", expected, missing(Optional.empty()));
    }

    /** One GPU's model name against the spec's model; empty when it is the model. */
    public static Optional<Verdict> model(Reading<String> name, String model) {
        if (!name.isPresent()) return Optional.of(new Verdict(ID, Severity.UNKNOWN, name.describe(), model, ""));
        if (sameModel(name.orElse(""), model)) return Optional.empty();
        return Optional.of(new Verdict(ID, Severity.FAIL, name.orElse(""), model, Fix.lines(Fix.note("a GPU of "
                + "another model: move it to the right node, or correct the spec's gpus.model"), "nvidia-smi -L")));
    }

    /** A GPU the agent saw at {@code address} until {@code lastSeen} that is no longer listed. */
    public static Verdict gone(String address, Instant lastSeen) {
        return new Verdict(ID, Severity.FAIL, "the GPU at " + address + " was seen until " + lastSeen + " and is gone",
                SEEN, missing(Optional.of(address)));
    }

    /** A GPU seen before, when no GPU could be read at all: a broken reader cannot be told from a lost GPU. */
    public static Verdict goneUnread(Reading<?> why) {
        return new Verdict(ID, Severity.UNKNOWN, why.describe(), SEEN, "");
    }

    /**
     * A GPU missing from the driver's list: its PCI function (the one GPU where its address is known, else every
     * NVIDIA one), the driver's list, the kernel's lines on it, then the hand steps.
     */
    public static String missing(Optional<String> address) {
        return Fix.lines(address.map(a -> "lspci -s " + ShellWord.of(a) + " -vv | head -n 5").orElse("lspci -nn -d 10de:"),
                "nvidia-smi -L",
                "dmesg | grep -iE 'fallen off|NVRM: Xid'",
                Fix.note("a GPU that falls off the bus needs the node rebooted; if it stays missing, check its seating "
                        + "and power, then replace it"));
    }

    /**
     * Whether a GPU named {@code name} (as NVML reads it) is the spec's {@code model}: every word of the model is a
     * word of the name (a model "H100" matches "NVIDIA H100 80GB HBM3"), split at spaces and hyphens, any case,
     * "NVIDIA" optional on either side (drivers before 2020 named the V100 "Tesla V100-PCIE-16GB"). Whole words, so a
     * name cut short ("NVIDIA H10", "Tesla V100-PCIE-16G") or another memory size is not taken for the model.
     */
    public static boolean sameModel(String name, String model) {
        Set<String> want = words(model);
        return !want.isEmpty() && words(name).containsAll(want);
    }

    private static Set<String> words(String s) {
        Set<String> out = new HashSet<>();
        for (String w : s.toLowerCase(Locale.ROOT).split("[\\s-]+")) {
            if (!w.isEmpty() && !w.equals("nvidia")) out.add(w);
        }
        return out;
    }
}
