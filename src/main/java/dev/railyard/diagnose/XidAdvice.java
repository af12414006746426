package dev.railyard.diagnose;

import dev.railyard.model.Severity;

/**
 * What an Xid code asks of the operator, from NVIDIA's Xid catalog. Codes not listed are WARN with "look it up",
 * so an unknown code is never silently fine.
 */
record XidAdvice(Severity severity, String meaning, String action) {

    static XidAdvice of(int xid) {
        return switch (xid) {
            case 13 -> new XidAdvice(Severity.WARN, "graphics engine exception (usually the application)",
                    "check the application; if it repeats across jobs, run dcgmi diag -r 3");
            case 31 -> new XidAdvice(Severity.WARN, "GPU memory page fault (usually the application)",
                    "check the application; if it repeats across jobs, run dcgmi diag -r 3");
            case 43 -> new XidAdvice(Severity.INFO, "GPU stopped processing (the application was killed)",
                    "nothing, unless it repeats");
            case 48 -> new XidAdvice(Severity.FAIL, "double-bit ECC error", "drain the node and reset the GPU "
                    + "(nvidia-smi -r); replace it if it comes back");
            case 63, 64 -> new XidAdvice(Severity.WARN, "ECC page retirement / row remapping event",
                    "reset the GPU when idle to apply the remap (nvidia-smi -r); check nvidia-smi -q -d ROW_REMAPPER");
            case 74 -> new XidAdvice(Severity.FAIL, "NVLink error", "drain the node; check nvidia-smi nvlink -s and "
                    + "reseat or replace the NVLink bridge/board");
            case 79 -> new XidAdvice(Severity.FAIL, "GPU has fallen off the bus", "drain the node and reboot; "
                    + "check PCIe seating, power and cooling; replace the GPU if it recurs");
            case 92 -> new XidAdvice(Severity.WARN, "high single-bit ECC error rate", "watch it; drain if it rises");
            case 94 -> new XidAdvice(Severity.WARN, "contained ECC error", "reset the GPU when the job ends");
            case 95 -> new XidAdvice(Severity.FAIL, "uncontained ECC error", "drain the node and reset the GPU");
            case 119, 120 -> new XidAdvice(Severity.FAIL, "GSP RPC timeout / GSP error",
                    "drain the node and reset the GPU (nvidia-smi -r) or reboot; update the driver if it recurs");
            default -> new XidAdvice(Severity.WARN, "Xid " + xid, "look the code up in NVIDIA's Xid catalog");
        };
    }
}
