package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.model.CheckId;
import dev.railyard.model.NcclNet;
import dev.railyard.model.Severity;

import java.util.Optional;

/**
 * bench.nccl.busbw, the one rule: busbw out of place at the largest size a run measured (not nccl-tests' sweep
 * average, which small sizes drag down) against expect.nccl_busbw_gbytes_per_s, any wrong element, and NET/Socket
 * where the fabric was expected. There is no honest default floor: busbw depends on the GPUs, NVLink and the fabric.
 * `bench nccl`, validate's NCCL step and diagnose's pasted nccl-tests all judge through here; where the ranks ran
 * (one node, or across nodes) is a fact of the run and picks the fix, since NVLink or the fabric carries the data.
 */
public final class NcclBusbwRule implements Rule {

    public static final CheckId ID = CheckId.BENCH_NCCL_BUSBW;
    public static final String NO_FLOOR = "no busbw expectation (expect.nccl_busbw_gbytes_per_s in the spec)";

    /** Where a run's ranks were: NVLink and PCIe carry one node's collective, the fabric one across nodes. */
    public enum Span { ONE_NODE, NODES }

    NcclBusbwRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "nccl-tests or railyard's NCCL sweep: busbw out of place at the largest size, whether the sweep "
                + "completed, #wrong and out-of-bounds values, the transport NCCL chose, whether the ranks span nodes";
    }

    @Override
    public String thresholds() {
        return "expect.nccl_busbw_gbytes_per_s (no default); #wrong 0";
    }

    @Override
    public String severities() {
        return "#wrong > 0: FAIL; below the floor: FAIL; NET/Socket where IB/RoCE is expected: FAIL; no result: FAIL; "
                + "no floor: INFO; an interrupted sweep or no table: UNKNOWN";
    }

    @Override
    public String fix() {
        return "wrong values: look for Xid/ECC, then rerun per GPU pair; slow on one node: the NVLink/PCIe topology "
                + "and the transport NCCL picked; slow across nodes: NCCL_IB_HCA, GPUDirect RDMA and the ports";
    }

    public static String expected(Optional<Double> floorGBps) {
        return floorGBps.map(f -> ">= " + RdmaBandwidthRule.fmt(f) + " GB/s busbw at the largest size").orElse(NO_FLOOR);
    }

    /** busbw at the largest size of one run; {@code observed} says it as the path measured it. */
    public static Verdict busbw(String observed, double busbwGBps, boolean complete, Optional<Double> floorGBps,
                                Span span) {
        String expected = expected(floorGBps);
        if (!complete) return new Verdict(ID, Severity.UNKNOWN, "sweep interrupted: " + observed, expected, "");
        if (floorGBps.isEmpty()) return new Verdict(ID, Severity.INFO, observed, expected, "");
        if (busbwGBps >= floorGBps.get()) return new Verdict(ID, Severity.PASS, observed, expected, "");
        return new Verdict(ID, Severity.FAIL, observed, expected, slow(span));
    }

    /** Data errors: #wrong > 0 in any row, or nccl-tests' "Out of bounds values : N FAILED". */
    public static Optional<Verdict> wrong(long wrong, boolean outOfBoundsFailed) {
        if (wrong == 0 && !outOfBoundsFailed) return Optional.empty();
        return Optional.of(new Verdict(ID, Severity.FAIL,
                wrong + " wrong values" + (outOfBoundsFailed ? ", out of bounds values FAILED" : ""), "#wrong = 0",
                CORRUPTED));
    }

    /** NET/Socket where the fabric (IB/RoCE) was expected, with the reason NCCL's own lines give for it. */
    public static Optional<Verdict> transport(NcclNet net, boolean fabricExpected) {
        Optional<NcclNet.Transport> t = net.transport();
        if (!fabricExpected || t.isEmpty() || t.get() != NcclNet.Transport.SOCKET) return Optional.empty();
        String why = net.ibverbsMissing() ? " after \"Failed to open libibverbs.so\""
                : net.ibNoDevice() ? " after \"NET/IB : No device found.\"" : "";
        return Optional.of(new Verdict(ID, Severity.FAIL,
                "NCCL used NET/Socket" + (net.socketInterfaces().isEmpty() ? "" : " over "
                        + String.join(",", net.socketInterfaces())) + why,
                "NET/IB over the RDMA fabric",
                Fix.lines(Fix.note("NCCL needs libibverbs (rdma-core), ACTIVE ports, NCCL_IB_HCA naming the fabric "
                        + "HCAs, and nvidia-peermem for GPUDirect RDMA:"),
                        "ldconfig -p | grep libibverbs", "rdma link show", "modprobe nvidia-peermem",
                        "echo nvidia-peermem > /etc/modules-load.d/nvidia-peermem.conf")));
    }

    /** A run that ended without a result (crashed, timed out); {@code byHand} reruns it where its errors show. */
    public static Verdict noResult(String observed, String expected, String byHand) {
        return new Verdict(ID, Severity.FAIL, observed, expected, byHand);
    }

    /** Nothing to judge: no table, no size measured, a run that could not start; {@code fix} says how to get one. */
    public static Verdict unread(String observed, String expected, String fix) {
        return new Verdict(ID, Severity.UNKNOWN, observed, expected, fix);
    }

    /** Data that did not verify: the GPUs' error reports first, then one pair at a time. */
    public static final String CORRUPTED = Fix.lines(Fix.note("data came back corrupted: look for Xid and ECC errors, "
            + "then rerun on one GPU pair at a time (CUDA_VISIBLE_DEVICES=0,1 ...) to find the bad one"),
            "railyard check --only gpu.", "dmesg | grep -iE 'NVRM: Xid|ECC'");

    private static final String SLOW_ONE_NODE = Fix.lines(
            Fix.note("NVLink or PCIe between the GPUs, and the transport NCCL picked (P2P, SHM or NET):"),
            "nvidia-smi topo -m", "unset NCCL_P2P_DISABLE NCCL_SHM_DISABLE",
            Fix.note("then run again with NCCL_DEBUG=INFO: its lines with 'via' and 'NET/' name each channel's path"));
    private static final String SLOW_NODES = Fix.lines(
            Fix.note("NCCL should use every HCA (NCCL_IB_HCA) with GPUDirect RDMA (nvidia-peermem), over NET/IB, not "
                    + "NET/Socket; on every node, the ports, their rates and what NCCL was given:"),
            "railyard check --only rdma.,host.module.peermem", "printenv | grep '^NCCL_'",
            Fix.note("then the slow pairs of validate's pair matrix"));

    static String slow(Span span) {
        return switch (span) {
            case ONE_NODE -> SLOW_ONE_NODE;
            case NODES -> SLOW_NODES;
        };
    }
}
