package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * host.cpu.governor: every CPU on the "performance" governor. A WARN, not a FAIL: RDMA results stay
 * valid because RDMA is offloaded, but perftest prints "Conflicting CPU frequency values" and TCP/NCCL proxies slow.
 */
public final class CpuGovernorCheck implements Check {

    static final String ID = CheckId.HOST_CPU_GOVERNOR.id();
    // sysfs works where cpupower is not installed; the systemd unit re-applies it at boot.
    static final String FIX = Fix.lines(
            "for g in /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor; do echo performance > \"$g\"; done",
            "printf '[Unit]\\nDescription=CPU governor performance\\n[Service]\\nType=oneshot\\nExecStart=/bin/sh -c "
                    + "\"for g in /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor; do echo performance > $g; done\"\\n"
                    + "[Install]\\nWantedBy=multi-user.target\\n' > /etc/systemd/system/cpu-performance.service "
                    + "&& systemctl enable cpu-performance.service");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        String subject = in.node();
        Reading<Map<String, Integer>> r = in.inventory().host().cpuGovernors();
        return switch (r) {
            // No cpufreq at all (VMs, intel_pstate off): there is no governor to set.
            case Reading.Absent<Map<String, Integer>> a ->
                    List.of(Finding.of(ID, Severity.INFO, subject, r.describe(), "performance", ""));
            case Reading.Failed<Map<String, Integer>> f -> List.of(Finding.unknown(ID, subject, r, "performance"));
            case Reading.Present<Map<String, Integer>>(Map<String, Integer> byGovernor) -> List.of(judge(subject, byGovernor));
        };
    }

    private static Finding judge(String subject, Map<String, Integer> byGovernor) {
        String observed = new TreeMap<>(byGovernor).entrySet().stream()
                .map(e -> e.getKey() + " on " + e.getValue() + " CPUs").collect(Collectors.joining(", "));
        if (byGovernor.isEmpty()) return Finding.of(ID, Severity.INFO, subject, "no CPUs with cpufreq", "performance", "");
        boolean allPerformance = byGovernor.keySet().stream().allMatch("performance"::equals);
        return allPerformance ? Finding.pass(ID, subject, observed, "performance")
                : Finding.of(ID, Severity.WARN, subject, observed, "performance on every CPU", FIX);
    }
}
