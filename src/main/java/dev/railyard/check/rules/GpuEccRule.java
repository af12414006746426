package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.Gpu.EccCounts;
import dev.railyard.model.Gpu.RemappedRows;
import dev.railyard.model.Severity;

import java.util.Optional;

/**
 * gpu.ecc.uncorrected: memory errors the GPU could not correct. Uncorrectable (DBE) errors and a failed row remap
 * are FAILs; a remap (or page retirement) waiting for a reset is a WARN. NVML's counts and a pasted nvidia-smi -q
 * are judged here alike; the GPU is named by its PCI address where the facts give it.
 */
public final class GpuEccRule implements Rule {

    public static final CheckId ID = CheckId.GPU_ECC_UNCORRECTED;
    public static final String EXPECTED = "0 uncorrectable";
    public static final String REMAP_EXPECTED = "no remap failure, none pending";

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "Gpu uncorrectable ECC counts (volatile, aggregate) and row remapper state (NVML, nvidia-smi -q -x); "
                + "diagnose: nvidia-smi -q's Double Bit / Uncorrectable counts, Remapping Failure Occurred, Pending";
    }

    @Override
    public String thresholds() {
        return "0 uncorrectable; no remap failure; none pending";
    }

    @Override
    public String severities() {
        return "uncorrectable > 0 or a remap failure: FAIL; a remap or page retirement pending: WARN; unreadable: "
                + "UNKNOWN";
    }

    @Override
    public String fix() {
        return "drain the node and run dcgmi diag; a failed remap: hardware inspection (RMA); pending: reset the GPU "
                + "when idle";
    }

    /** NVML's uncorrectable counts of one GPU. */
    public static Verdict counts(EccCounts e) {
        String observed = "volatile " + e.volatileUncorrected() + ", aggregate " + e.aggregateUncorrected()
                + " uncorrectable";
        if (e.volatileUncorrected() == 0 && e.aggregateUncorrected() == 0) {
            return new Verdict(ID, Severity.PASS, observed, EXPECTED, "");
        }
        return uncorrectable(observed);
    }

    /** Errors the GPU could not correct, as {@code observed} says them. */
    public static Verdict uncorrectable(String observed) {
        return new Verdict(ID, Severity.FAIL, observed, EXPECTED,
                Fix.lines(Fix.note("drain the node first; send the GPU for hardware inspection (RMA) if errors recur"),
                        "dcgmi diag -r 3"));
    }

    /** The row remapper's state; empty when nothing failed and nothing waits. */
    public static Optional<Verdict> remap(RemappedRows rows, Optional<String> gpu) {
        String observed = "correctable " + rows.correctable() + ", uncorrectable " + rows.uncorrectable()
                + ", pending " + rows.pending() + ", failure " + rows.failure();
        if (rows.failure()) return Optional.of(remapFailed(observed, gpu));
        if (rows.pending()) return Optional.of(pending(observed, gpu));
        return Optional.empty();
    }

    public static Verdict remapFailed(String observed, Optional<String> gpu) {
        return new Verdict(ID, Severity.FAIL, observed, REMAP_EXPECTED,
                Fix.lines(Fix.note("remapping failed: drain the node and send the GPU for hardware inspection (RMA)"),
                        "nvidia-smi -q" + select(gpu) + " -d ROW_REMAPPER"));
    }

    /** A remap or page retirement that a reset of the GPU applies. */
    public static Verdict pending(String observed, Optional<String> gpu) {
        return new Verdict(ID, Severity.WARN, observed, REMAP_EXPECTED,
                Fix.lines(Fix.note("when the GPU is idle, reset it to activate the remap (or reboot)"),
                        "nvidia-smi -r" + select(gpu)));
    }

    /** nvidia-smi's -i for the GPU's PCI address; without one, every GPU. */
    private static String select(Optional<String> gpu) {
        return gpu.map(g -> " -i " + ShellWord.of(g)).orElse("");
    }
}
