package dev.railyard.check;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory.NvmlSystem;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * gpu.count: GPU count and model against the spec. gpu.driver: driver / CUDA version against the spec's pins.
 * Without a spec both are reported as INFO (there is nothing to compare to on one node).
 */
public final class GpuSpecCheck implements Check {

    static final String COUNT = "gpu.count";
    static final String DRIVER = "gpu.driver";

    @Override
    public String id() {
        return "gpu";
    }

    @Override
    public List<Finding> run(CheckInput in) {
        Optional<ClusterSpec.Gpus> want = in.spec().flatMap(ClusterSpec::gpus);
        if (want.isEmpty() && in.gpuCount() == 0) return List.of();
        List<Finding> out = new ArrayList<>(count(in, want));
        out.addAll(driver(in, want));
        return out;
    }

    private List<Finding> count(CheckInput in, Optional<ClusterSpec.Gpus> want) {
        List<Gpu> gpus = in.inventory().gpu().gpus();
        int n = in.gpuCount();
        if (want.isEmpty()) {
            return List.of(Finding.of(COUNT, Severity.INFO, in.node(), n + " GPUs", "no spec to compare", ""));
        }
        ClusterSpec.Gpus w = want.get();
        List<Finding> out = new ArrayList<>();
        String expected = w.perNode() + " x " + w.model();
        List<String> unidentified = in.possibleUnreadGpus();
        if (!unidentified.isEmpty()) {
            // a function whose vendor/class is garbage may or may not be one of the GPUs: the count cannot be judged
            out.add(Finding.of(COUNT, Severity.UNKNOWN, in.node(), n + " GPUs; PCI identity unreadable, may be GPUs: "
                    + String.join(", ", unidentified), expected, ""));
        } else if (n != w.perNode()) {
            out.add(Finding.of(COUNT, Severity.FAIL, in.node(), n + " GPUs", expected,
                    "check seating/power of the missing GPUs (lspci -d 10de:; nvidia-smi -L; dmesg | grep -i NVRM)"));
        } else {
            out.add(Finding.pass(COUNT, in.node(), n + " GPUs", expected));
        }
        for (Gpu g : gpus) {
            String subject = g.subject();
            Reading<String> name = g.name();
            if (!name.isPresent()) {
                out.add(Finding.unknown(COUNT, subject, name, w.model()));
            } else if (!name.orElse("").contains(w.model()) && !w.model().contains(name.orElse(""))) {
                out.add(Finding.of(COUNT, Severity.FAIL, subject, name.orElse(""), w.model(),
                        "fix the spec's gpus.model or move the GPU to the right node"));
            }
        }
        return out;
    }

    private List<Finding> driver(CheckInput in, Optional<ClusterSpec.Gpus> want) {
        Reading<NvmlSystem> r = in.inventory().gpu().nvml();
        Optional<String> wantDriver = want.flatMap(ClusterSpec.Gpus::driver);
        Optional<String> wantCuda = want.flatMap(ClusterSpec.Gpus::cuda);
        String expected = wantDriver.map(d -> "driver " + d).orElse("") + wantCuda.map(c -> " CUDA " + c).orElse("");
        if (expected.isBlank()) expected = "no spec pin";
        if (!(r instanceof Reading.Present<NvmlSystem>(NvmlSystem sys))) {
            return List.of(Finding.unknown(DRIVER, in.node(), r, expected.trim()));
        }
        String observed = "driver " + sys.driverVersion() + " CUDA " + sys.cudaVersion();
        if (wantDriver.isEmpty() && wantCuda.isEmpty()) {
            return List.of(Finding.of(DRIVER, Severity.INFO, in.node(), observed, expected, ""));
        }
        boolean driverOk = wantDriver.map(d -> sys.driverVersion().startsWith(d)).orElse(true);
        boolean cudaOk = wantCuda.map(c -> sys.cudaVersion().startsWith(c)).orElse(true);
        if (driverOk && cudaOk) return List.of(Finding.pass(DRIVER, in.node(), observed, expected.trim()));
        return List.of(Finding.of(DRIVER, Severity.FAIL, in.node(), observed, expected.trim(),
                "install the pinned driver on this node (apt install nvidia-driver-<version> / dnf module install "
                        + "nvidia-driver:<version>) or update gpus.driver/gpus.cuda in the spec"));
    }
}
