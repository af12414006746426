package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory.NvmlSystem;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.model.ValueText;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.HashSet;
import java.util.Set;
import java.util.Optional;

/**
 * gpu.count: GPU count and model against the spec. gpu.driver: driver / CUDA version against the spec's pins.
 * Without a spec both are reported as INFO (there is nothing to compare to on one node).
 */
public final class GpuSpecCheck implements Check {

    static final String COUNT = CheckId.GPU_COUNT.id();
    static final String DRIVER = CheckId.GPU_DRIVER.id();

    @Override
    public String id() {
        return "gpu";
    }

    @Override
    public List<Finding> run(CheckInput in) {
        // the node's own gpus where it has them (a mixed cluster), else the cluster's
        Optional<ClusterSpec.Gpus> want = in.spec().flatMap(s -> s.gpusFor(in.node()));
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
        } else if (n > w.perNode()) {
            out.add(Finding.of(COUNT, Severity.FAIL, in.node(), n + " GPUs", expected,
                    Fix.lines(Fix.note("more GPUs than the spec gives this node: correct its gpus.per_node (its own gpus "
                            + "entry in a mixed cluster), or --node if this is another node"), "nvidia-smi -L")));
        } else if (n < w.perNode()) {
            out.add(missingGpus(in, n, expected));
        } else {
            out.add(Finding.pass(COUNT, in.node(), n + " GPUs", expected));
        }
        for (Gpu g : gpus) {
            String subject = g.subject();
            Reading<String> name = g.name();
            if (!name.isPresent()) {
                out.add(Finding.unknown(COUNT, subject, name, w.model()));
            } else if (!sameModel(name.orElse(""), w.model())) {
                out.add(Finding.of(COUNT, Severity.FAIL, subject, name.orElse(""), w.model(),
                        Fix.lines(Fix.note("a GPU of another model: move it to the right node, or correct the spec's gpus.model"),
                                "nvidia-smi -L")));
            }
        }
        return out;
    }

    /**
     * Whether a GPU named {@code name} (as NVML reads it) is the spec's {@code model}: every word of the model is a
     * word of the name (a model "H100" matches "NVIDIA H100 80GB HBM3"), split at spaces and hyphens, any case,
     * "NVIDIA" optional on either side (drivers before 2020 named the V100 "Tesla V100-PCIE-16GB"). Whole words, so a
     * name cut short ("NVIDIA H10", "Tesla V100-PCIE-16G") or another memory size is not taken for the model.
     */
    static boolean sameModel(String name, String model) {
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

    /**
     * Fewer GPUs than the spec wants. Without a loaded driver NVML lists nothing, so the count says that first rather
     * than sending the user to reseat GPUs that are fine.
     */
    private static Finding missingGpus(CheckInput in, int n, String expected) {
        long onPci = in.inventory().pciDevices().stream().filter(p -> p.isNvidiaGpu()).count();
        if (noDriver(in)) {
            if (onPci == 0) {
                return Finding.of(COUNT, Severity.FAIL, in.node(), n + " GPUs: no NVIDIA GPU on the PCI bus and no NVIDIA "
                        + "driver loaded", expected, Fix.lines(Fix.note("the GPUs are not seated or powered, or this is "
                        + "not the node the spec means (--node)"), "lspci -nn -d 10de:"));
            }
            return Finding.of(COUNT, Severity.FAIL, in.node(), n + " GPUs (" + onPci + " NVIDIA GPUs on PCI): no NVIDIA "
                    + "driver loaded", expected, LOAD_DRIVER);
        }
        return Finding.of(COUNT, Severity.FAIL, in.node(), n + " GPUs", expected,
                Fix.lines(Fix.note("check seating and power of the missing GPUs; the kernel log says which fell off the bus"),
                        "lspci -nn -d 10de:", "nvidia-smi -L", "dmesg | grep -i NVRM | tail -n 20"));
    }

    /** NVML answered nothing and the module list, read, has no nvidia module; an unread list proves nothing. */
    private static boolean noDriver(CheckInput in) {
        return !in.inventory().gpu().nvml().isPresent()
                && in.inventory().host().modules().optional().map(m -> !m.getOrDefault("nvidia", false)).orElse(false);
    }

    /** Load the installed driver, or install the distribution's when there is none to load. */
    static final String LOAD_DRIVER = Fix.lines(
            "modprobe nvidia || (command -v ubuntu-drivers >/dev/null && ubuntu-drivers install || dnf module install -y nvidia-driver)",
            "nvidia-smi -L");

    /** "580.159.04", "13.0": dot-separated numbers, as NVML and nvidia-smi print them. */
    static boolean isVersion(String v) {
        return v.matches("[0-9]+(\\.[0-9]+)*");
    }

    /** The version is the pin, or lies under it: "580.159.04" is pinned by "580" and "580.159", not by "580.1". */
    static boolean pinned(String version, String pin) {
        return version.equals(pin) || version.startsWith(pin + ".");
    }

    private List<Finding> driver(CheckInput in, Optional<ClusterSpec.Gpus> want) {
        Reading<NvmlSystem> r = in.inventory().gpu().nvml();
        Optional<String> wantDriver = want.flatMap(ClusterSpec.Gpus::driver);
        Optional<String> wantCuda = want.flatMap(ClusterSpec.Gpus::cuda);
        String expected = wantDriver.map(d -> "driver " + d).orElse("") + wantCuda.map(c -> " CUDA " + c).orElse("");
        if (expected.isBlank()) expected = "no spec pin";
        if (!(r instanceof Reading.Present<NvmlSystem>(NvmlSystem sys))) {
            if (in.gpuCount() > 0 && noDriver(in)) {
                return List.of(Finding.of(DRIVER, Severity.FAIL, in.node(), in.gpuCount() + " NVIDIA GPUs on PCI, no "
                        + "NVIDIA driver loaded (" + r.describe() + ")", expected.trim(), LOAD_DRIVER));
            }
            return List.of(Finding.unknown(DRIVER, in.node(), r, expected.trim()));
        }
        String observed = "driver " + sys.driverVersion() + " CUDA " + sys.cudaVersion();
        if (wantDriver.isEmpty() && wantCuda.isEmpty()) {
            return List.of(Finding.of(DRIVER, Severity.INFO, in.node(), observed, expected, ""));
        }
        // a pinned version that was read as something else than a version ("580.159.04 kB") is not judged
        for (String v : List.of(sys.driverVersion(), sys.cudaVersion())) {
            if (!isVersion(v)) {
                return List.of(new Finding(DRIVER, Severity.UNKNOWN, in.node(), observed + " (not a version: "
                        + ValueText.quote(v) + ")", expected.trim(), "nvidia-smi --query-gpu=driver_version --format=csv,noheader"));
            }
        }
        boolean driverOk = wantDriver.map(d -> pinned(sys.driverVersion(), d)).orElse(true);
        boolean cudaOk = wantCuda.map(c -> pinned(sys.cudaVersion(), c)).orElse(true);
        if (driverOk && cudaOk) return List.of(Finding.pass(DRIVER, in.node(), observed, expected.trim()));
        return List.of(Finding.of(DRIVER, Severity.FAIL, in.node(), observed, expected.trim(),
                Fix.lines(Fix.note("install the driver the spec pins (gpus.driver), or change the pin if this node is right"),
                        wantDriver.map(d -> "(command -v apt-get >/dev/null && apt-get install -y nvidia-driver-" + d.split("\\.")[0]
                                + " || dnf module install -y nvidia-driver:" + d.split("\\.")[0] + ")").orElse("nvidia-smi"))));
    }
}
