package dev.railyard.diagnose;

import dev.railyard.model.ClusterSpec;

import java.util.Optional;

/**
 * What diagnose judges the numbers against. The link rate has no default on purpose: a 40G port and a 10G port give
 * the same 1139 MB/s, and only the rate tells a bad cable from a slow NIC. The rest defaults to the spec's Expect.
 *
 * @param linkGbps        the port's rate (--rate), else what the perftest header states, else unknown
 * @param fabricExpected  NCCL should use IB/RoCE, so NET/Socket is a fallback (false for a single-node or TCP test)
 */
public record DiagnoseTargets(Optional<Double> linkGbps, double rdmaBwEfficiency, double rdmaLatencyUs,
                              Optional<Double> ncclBusbwGBps, boolean fabricExpected,
                              Optional<Double> storageSeqMiBps) {

    public static DiagnoseTargets from(ClusterSpec.Expect expect) {
        return new DiagnoseTargets(Optional.empty(), expect.rdmaBwEfficiency(), expect.rdmaLatencyUs(),
                expect.ncclBusbwGBps(), true,
                expect.storageSeqMBps().map(mb -> mb * 1e6 / 1_048_576)); // the spec says MB/s, fio MiB/s
    }

    public static DiagnoseTargets defaults() {
        return from(ClusterSpec.Expect.defaults());
    }
}
