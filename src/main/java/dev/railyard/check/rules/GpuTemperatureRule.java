package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Gpu;
import dev.railyard.model.Severity;

import java.util.Locale;
import java.util.Optional;

/**
 * gpu.temperature, the one rule: above the warning temperature (expect.gpu_temp_warn_c, 85 C by default) is WARN,
 * at the GPU's own slowdown threshold FAIL. The snapshot check and the agent's sustained-heat detector both judge
 * through here, so one reading gets one verdict and one fix.
 */
public final class GpuTemperatureRule implements Rule {

    public static final CheckId ID = CheckId.GPU_TEMPERATURE;

    GpuTemperatureRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "Gpu temperature and its slowdown temperature (NVML, nvidia-smi); the agent: how long it has been hot";
    }

    @Override
    public String thresholds() {
        return "expect.gpu_temp_warn_c (default 85 C); the GPU's own slowdown temperature; the agent: hot for 1 min";
    }

    @Override
    public String severities() {
        return "above the warning temperature: WARN; at or above slowdown: FAIL; unreadable: UNKNOWN";
    }

    @Override
    public String fix() {
        return "read the GPU's temperatures and clocks and the node's fans and inlet, then check the cooling";
    }

    public static double warnC(Optional<ClusterSpec> spec) {
        return spec.map(s -> s.expect().gpuTempWarnC()).orElse(ClusterSpec.Expect.defaults().gpuTempWarnC());
    }

    /** Hot is strictly above the warning temperature: 85 C on an 85 C limit is within it. */
    public static boolean hot(int celsius, double warnC) {
        return celsius > warnC;
    }

    public static Severity severity(int celsius, double warnC, Optional<Integer> slowdownC) {
        if (slowdownC.isPresent() && celsius >= slowdownC.get()) return Severity.FAIL;
        return hot(celsius, warnC) ? Severity.WARN : Severity.PASS;
    }

    public static String expected(double warnC, Optional<Integer> slowdownC) {
        return String.format(Locale.ROOT, "<= %.0f C", warnC) + slowdownC.map(s -> ", below slowdown " + s + " C").orElse("");
    }

    /** What shows the GPU's temperatures and clocks, and the node's fans and inlet, then what hands do. */
    public static String fix(Gpu g) {
        return Fix.lines("nvidia-smi -q -d TEMPERATURE,PERFORMANCE -i " + ShellWord.of(g.pciAddress()),
                "ipmitool sdr type Temperature",
                "ipmitool sdr type Fan",
                Fix.note("check the node's fans, inlet air temperature and coolant flow, and what blocks the air to GPU"
                        + g.index() + "; a power budget assumes full cooling"));
    }
}
