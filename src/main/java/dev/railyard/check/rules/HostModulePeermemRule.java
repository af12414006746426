package dev.railyard.check.rules;

import dev.railyard.model.CheckId;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.Map;

/**
 * host.module.peermem: a node with GPUs and RDMA ports but no nvidia_peermem has no GPUDirect RDMA, so NCCL copies
 * through host memory: WARN. The legacy nv_peer_mem still gives GPUDirect: INFO.
 */
public final class HostModulePeermemRule implements Rule {

    public static final CheckId ID = CheckId.HOST_MODULE_PEERMEM;
    public static final String EXPECTED = "nvidia_peermem loaded (GPUDirect RDMA)";
    public static final String FIX = HostModuleRdmaRule.module("nvidia-peermem");

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "GPUs, RDMA ports, loaded modules (/proc/modules)";
    }

    @Override
    public String thresholds() {
        return "none";
    }

    @Override
    public String severities() {
        return "GPUs and RDMA ports without nvidia_peermem: WARN; legacy nv_peer_mem: INFO; modules unreadable: UNKNOWN";
    }

    @Override
    public String fix() {
        return "load nvidia_peermem now and at boot";
    }

    /** The loaded modules of a node with {@code gpus} GPUs and {@code ports} RDMA ports (both more than 0). */
    public static Verdict judge(int gpus, int ports, Reading<Map<String, Boolean>> modules) {
        if (!(modules instanceof Reading.Present<Map<String, Boolean>>(Map<String, Boolean> loaded))) {
            return new Verdict(ID, Severity.UNKNOWN, modules.describe(), EXPECTED, "");
        }
        if (loaded.getOrDefault("nvidia_peermem", false)) {
            return new Verdict(ID, Severity.PASS, "nvidia_peermem loaded", EXPECTED, "");
        }
        if (loaded.getOrDefault("nv_peer_mem", false)) {
            // the old Mellanox module still gives GPUDirect; worth knowing, not worth failing
            return new Verdict(ID, Severity.INFO, "nv_peer_mem (legacy) loaded", EXPECTED, "");
        }
        return new Verdict(ID, Severity.WARN, gpus + " GPUs and " + ports + " RDMA ports, nvidia_peermem not loaded",
                EXPECTED, FIX);
    }
}
