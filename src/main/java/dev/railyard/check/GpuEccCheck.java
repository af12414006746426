package dev.railyard.check;

import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.Gpu.EccCounts;
import dev.railyard.model.Gpu.RemappedRows;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;

/** gpu.ecc.uncorrected: uncorrectable (DBE) ECC errors, and row-remap failure (FAIL) or pending remap (WARN). */
public final class GpuEccCheck implements Check {

    static final String ID = "gpu.ecc.uncorrected";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        List<Finding> out = new ArrayList<>();
        for (Gpu g : in.inventory().gpu().gpus()) {
            String subject = g.subject();
            out.add(ecc(subject, g.ecc()));
            // Row remapping exists only on A100 and later; absent there is normal and the ECC finding covers the GPU.
            if (g.remappedRows() instanceof Reading.Present<RemappedRows>(RemappedRows rows)) {
                remap(subject, g.index(), rows, out);
            } else if (g.remappedRows() instanceof Reading.Failed<RemappedRows> f) {
                out.add(Finding.unknown(ID, subject + " row remap", f, "no failure, none pending"));
            }
        }
        return out;
    }

    private static Finding ecc(String subject, Reading<EccCounts> r) {
        String expected = "0 uncorrectable";
        if (!(r instanceof Reading.Present<EccCounts>(EccCounts e))) return Finding.unknown(ID, subject, r, expected);
        String observed = "volatile " + e.volatileUncorrected() + ", aggregate " + e.aggregateUncorrected()
                + " uncorrectable";
        if (e.volatileUncorrected() == 0 && e.aggregateUncorrected() == 0) {
            return Finding.pass(ID, subject, observed, expected);
        }
        return Finding.of(ID, Severity.FAIL, subject, observed, expected,
                "drain the node, run dcgmi diag -r 3, and send the GPU for hardware inspection (RMA) if errors recur");
    }

    private static void remap(String subject, int index, RemappedRows rows, List<Finding> out) {
        String observed = "correctable " + rows.correctable() + ", uncorrectable " + rows.uncorrectable()
                + ", pending " + rows.pending() + ", failure " + rows.failure();
        String expected = "no remap failure, none pending";
        if (rows.failure()) {
            out.add(Finding.of(ID, Severity.FAIL, subject + " row remap", observed, expected,
                    "remapping failed: drain the node and send the GPU for hardware inspection (RMA)"));
        } else if (rows.pending()) {
            out.add(Finding.of(ID, Severity.WARN, subject + " row remap", observed, expected,
                    "reset the GPU to activate the remap when idle: nvidia-smi -r -i " + index + " (or reboot)"));
        }
    }
}
