package dev.railyard.check;

import dev.railyard.bench.RealSamples;
import dev.railyard.bench.nccltests.NcclTestsParser;
import dev.railyard.model.NcclTestsResult;
import dev.railyard.bench.perftest.PerftestParser;
import dev.railyard.model.PerftestResult;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class BenchVerdictsTest {

    private final PerftestParser perftest = new PerftestParser();
    private final NcclTestsParser nccl = new NcclTestsParser();

    private static final String MB_TABLE = " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n";

    @Test
    void seedBandwidthOn40GPasses() {
        PerftestResult r = perftest.parse(RealSamples.body("bench/perftest/seed-001-ib_write_bw-and-lat-mlx4-40g.txt"));
        Finding f = BenchVerdicts.rdmaBandwidth("mlx4_0:2", r, 40, 0.90);
        assertThat(f.severity()).isEqualTo(Severity.PASS);
        // perftest's MB is 2^20 bytes: 4554.47 MB/s = 38.2 Gb/s = 95.5 % of 40G (the homelab write-up's "36.4 Gbps, ~91 %"
        // converts with 10^6 bytes; either way it clears the 90 % bar).
        assertThat(f.observed()).isEqualTo("4554.47 MB/sec = 38.2 Gb/s at 65536 B = 95.5% of 40 Gb/s");
        assertThat(f.id()).isEqualTo("bench.rdma.bw");
    }

    @Test
    void tenGigOnA40GPortSaysReplaceTheCable() {
        // The homelab write-up's troubleshooting row: "Low bandwidth (~1139 MB/sec = 10G) | Bad cable or 10G negotiation".
        PerftestResult r = perftest.parse(MB_TABLE + " 65536      5000           1139.50            1139.20              0.018227\n");
        Finding f = BenchVerdicts.rdmaBandwidth("mlx4_0:2", r, 40, 0.90);
        assertThat(f.severity()).isEqualTo(Severity.FAIL);
        assertThat(f.observed()).contains("23.9% of 40 Gb/s").contains("negotiated at 10G");
        assertThat(f.remediation()).startsWith("# negotiated 10G: replace the QSFP+ cable/DAC");
    }

    @Test
    void slowButNotALowerRateGivesTheTuningFix() {
        PerftestResult r = perftest.parse(MB_TABLE + " 65536      5000           3900.00            3900.00              0.062400\n");
        Finding f = BenchVerdicts.rdmaBandwidth("mlx4_0:2", r, 40, 0.90);
        assertThat(f.severity()).isEqualTo(Severity.FAIL);
        assertThat(f.remediation()).contains("numactl");
    }

    @Test
    void gbitsSweepOnA400GNicAndAFailedRun() {
        PerftestResult ok = perftest.parse(RealSamples.body("bench/perftest/dranet-ib_write_bw-cuda-dmabuf-report_gbits-h200.txt"));
        Finding f = BenchVerdicts.rdmaBandwidth("mlx5_3:1", ok, 400, 0.90);
        // 140.40 Gb/s on a 400G NIC through GPU memory: 35 %.
        assertThat(f.severity()).isEqualTo(Severity.FAIL);
        assertThat(f.observed()).contains("35.1% of 400 Gb/s");

        PerftestResult dead = perftest.parse(RealSamples.body("bench/perftest/dranet-ib_write_bw-a-report_gbits-roce-FAILED-status10.txt"));
        Finding d = BenchVerdicts.rdmaBandwidth("mlx5_3:1", dead, 400, 0.90);
        assertThat(d.severity()).isEqualTo(Severity.FAIL);
        assertThat(d.observed()).contains("line 43").contains("completion");
        assertThat(d.remediation()).contains("status 10");

        PerftestResult down = perftest.parse(RealSamples.body("bench/perftest/issue-perftest-43-port-state-down-couldnt-get-context.txt"));
        assertThat(BenchVerdicts.rdmaLatency("x:1", down, 2.0).remediation()).contains("--ib-port");
    }

    @Test
    void seedLatencyPassesTheSpec() {
        PerftestResult r = perftest.parse(RealSamples.body("bench/perftest/seed-001-ib_write_bw-and-lat-mlx4-40g.txt"));
        Finding f = BenchVerdicts.rdmaLatency("mlx4_0:2", r, 2.0);
        assertThat(f.severity()).isEqualTo(Severity.PASS);
        assertThat(f.observed()).isEqualTo("0.85 µs at 2 B");
        assertThat(BenchVerdicts.rdmaLatency("mlx4_0:2", r, 0.8).severity()).isEqualTo(Severity.FAIL);
    }

    @Test
    void busbwIsJudgedAtTheLargestSizeNotTheAverage() {
        NcclTestsResult r = nccl.parse(RealSamples.body("bench/nccltests/dranet-all_gather_perf-16xB200-2nodes-gke.txt"));
        // Avg bus bandwidth is 59.36 GB/s; the largest size reached 260.03.
        List<Finding> pass = BenchVerdicts.ncclBusbw("gke", r, Optional.of(250.0), true);
        assertThat(pass).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.PASS);
            assertThat(f.observed()).isEqualTo("260.03 GB/s busbw at 8589934592 B");
        });
        assertThat(BenchVerdicts.ncclBusbw("gke", r, Optional.of(300.0), true))
                .singleElement().extracting(Finding::severity).isEqualTo(Severity.FAIL);
        assertThat(BenchVerdicts.ncclBusbw("gke", r, Optional.empty(), true))
                .singleElement().extracting(Finding::severity).isEqualTo(Severity.INFO);
    }

    @Test
    void socketFallbackFailsWhenTheFabricWasExpected() {
        NcclTestsResult r = nccl.parse(RealSamples.body("bench/nccltests/issue-nccl-1267-NET-IB-no-device-Using-network-Socket-gcp.txt"));
        List<Finding> f = BenchVerdicts.ncclBusbw("instance-8g-96c-3", r, Optional.empty(), true);
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.FAIL);
            assertThat(x.observed()).isEqualTo("NCCL used NET/Socket over ens7 after \"NET/IB : No device found.\"");
            assertThat(x.remediation()).contains("NCCL_IB_HCA").contains("nvidia-peermem").contains("rdma link show");
        });
        assertThat(BenchVerdicts.ncclBusbw("h", r, Optional.empty(), false)).extracting(Finding::severity)
                .containsExactly(Severity.UNKNOWN);
    }

    @Test
    void wrongValuesFail() {
        // Row layout of nccl-tests; 248 is the count nccl-tests#7 reports ("Out of bounds values : 248 FAILED").
        String out = """
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                    1048576        262144     float     sum      -1    74.78   14.02   24.54    248    76.17   13.77   24.09      0
                # Out of bounds values : 248 FAILED
                # Avg bus bandwidth    : 24.3
                """;
        List<Finding> f = BenchVerdicts.ncclBusbw("n1", nccl.parse(out), Optional.of(20.0), true);
        assertThat(f).extracting(Finding::severity).containsExactly(Severity.PASS, Severity.FAIL);
        assertThat(f.get(1).observed()).isEqualTo("248 wrong values, out of bounds values FAILED");
    }
}
