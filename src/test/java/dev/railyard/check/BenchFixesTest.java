package dev.railyard.check;

import dev.railyard.Jargon;
import dev.railyard.bench.RealSamples;
import dev.railyard.bench.nccltests.NcclTestsParser;
import dev.railyard.bench.perftest.PerftestParser;
import dev.railyard.check.rules.NcclBusbwRule;
import dev.railyard.model.BandwidthResult;
import dev.railyard.model.FioDirection;
import dev.railyard.model.FioJob;
import dev.railyard.model.Finding;
import dev.railyard.model.GpuCopyResult;
import dev.railyard.model.LatencyResult;
import dev.railyard.model.LatencyStats;
import dev.railyard.model.NcclBenchResult;
import dev.railyard.model.NcclSizeResult;
import dev.railyard.model.PerftestFailure;
import dev.railyard.model.PerftestResult;
import dev.railyard.model.Reading;
import dev.railyard.model.ReceiverReport;
import dev.railyard.model.StopReason;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every finding a benchmark verdict can give — NCCL (own sweep, validate's sweep, nccl-tests output), TCP, storage,
 * GPU copies, perftest tables and every perftest failure kind — carries a fix a root shell runs as it is (commands, or
 * "# " lines for what only hands can do), and no word of our own notes.
 */
class BenchFixesTest {

    private static final String MB_TABLE = " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n";

    private static NcclBenchResult sweep(double busbw, long wrong, boolean withSizes) {
        NcclSizeResult.Timing t = new NcclSizeResult.Timing(6300, busbw, busbw, wrong);
        List<NcclSizeResult> sizes = withSizes ? List.of(new NcclSizeResult(1L << 31, 1L << 29, "float", "sum", -1, t,
                Optional.of(t))) : List.of();
        return new NcclBenchResult("all_reduce", 2, List.of("0", "1"), "2.28.3", sizes, busbw, true);
    }

    private static List<Finding> all() {
        List<Finding> out = new ArrayList<>();
        for (NcclBusbwRule.Span span : NcclBusbwRule.Span.values()) {
            out.addAll(NcclBenchVerdict.judge("2 GPUs of this node", sweep(0, 0, false), Optional.of(300.0), span));
            out.addAll(NcclBenchVerdict.judge("2 GPUs of this node", sweep(100, 7, true), Optional.of(300.0), span));
            out.addAll(NcclSweepVerdict.judge("rail0", 16, 1L << 31, 100, 7, true, Optional.of(300.0), span));
            out.addAll(NcclSweepVerdict.judge("rail0", 16, 1L << 31, 100, 0, false, Optional.of(300.0), span));
        }

        BandwidthResult bw = new BandwidthResult("10.0.0.2", 5201, 4, 131072, 10, List.of(), 34_250_000_000L, 28.1,
                Reading.of(new ReceiverReport(34_250_000_000L, 10, 27.4)), StopReason.of(StopReason.Kind.DURATION));
        BandwidthResult cut = new BandwidthResult("10.0.0.2", 5201, 4, 131072, 10, List.of(), 34_250_000_000L, 28.1,
                Reading.absent("interrupted"), StopReason.of(StopReason.Kind.INTERRUPTED));
        LatencyResult lat = new LatencyResult("10.0.0.2", 5201, 64, 0.4, 10,
                new LatencyStats(1000, 20.1, 21.9, 21.5, 30.2, 41.0, 55.0), LatencyResult.BASIS, List.of(),
                StopReason.of(StopReason.Kind.DURATION));
        LatencyResult latCut = new LatencyResult("10.0.0.2", 5201, 64, 0.4, 10,
                new LatencyStats(0, 0, 0, 0, 0, 0, 0), LatencyResult.BASIS, List.of(),
                StopReason.of(StopReason.Kind.INTERRUPTED));
        out.addAll(TcpBenchVerdict.judge("10.0.0.2:5201", bw, Optional.of(35.0), Optional.empty()));
        out.addAll(TcpBenchVerdict.judge("10.0.0.2:5201", cut, Optional.of(35.0), Optional.empty()));
        out.addAll(TcpBenchVerdict.judge("10.0.0.2:5201", lat, Optional.empty(), Optional.of(10.0)));
        out.addAll(TcpBenchVerdict.judge("10.0.0.2:5201", latCut, Optional.empty(), Optional.of(10.0)));

        FioDirection none = new FioDirection(0, 0, 0, OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty(),
                OptionalDouble.empty());
        FioDirection slow = new FioDirection(900 * 1024, 900, 1L << 30, OptionalDouble.empty(), OptionalDouble.empty(),
                OptionalDouble.empty(), OptionalDouble.empty());
        out.add(new StorageSeqVerdict(2000).judge("gpuserver1", new FioJob("write_test", "write", none, slow)));
        out.add(StorageSeqVerdict.fioFailed("gpuserver1", "write", "fio: No space left on device", true));
        out.add(StorageSeqVerdict.fioFailed("gpuserver1", "write", "fio: pid=1, err=22/file:filesetup.c", true));
        out.add(StorageSeqVerdict.fioFailed("gpuserver1", "read", "fio: pid=1, err=22/file:filesetup.c", false));

        out.addAll(GpuCopyVerdict.judge(new GpuCopyResult.Run(1 << 28, 20, List.of(
                new GpuCopyResult(0, "0000:18:00.0", 5, 5, 3000, Optional.of("Gen5 x16"), Optional.of(63.0)),
                new GpuCopyResult(1, "0000:19:00.0", 5, 5, 3000, Optional.empty(), Optional.empty())),
                new double[2][2], new boolean[2][2])));

        PerftestParser perftest = new PerftestParser();
        PerftestResult tenGig = perftest.parse(MB_TABLE + " 65536      5000           1139.50            1139.20              0.018227\n");
        PerftestResult slowBw = perftest.parse(MB_TABLE + " 65536      5000           3900.00            3900.00              0.062400\n");
        out.add(BenchVerdicts.rdmaBandwidth("mlx4_0:2", tenGig, 40, 0.90));
        out.add(BenchVerdicts.rdmaBandwidth("mlx4_0:2", slowBw, 40, 0.90));
        out.add(BenchVerdicts.rdmaBandwidthUnrated("mlx4_0:2", tenGig, 0.90));
        out.add(BenchVerdicts.rdmaBandwidthUnrated("mlx4_0:2", perftest.parse("nothing\n"), 0.90));
        out.add(BenchVerdicts.rdmaLatencyTable("mlx4_0:2", perftest.parse("nothing\n"), 2.0));
        out.add(BenchVerdicts.rdmaLatency("mlx4_0:2", perftest.parse(RealSamples.body(
                "bench/perftest/seed-001-ib_write_bw-and-lat-mlx4-40g.txt")), 0.5));

        NcclTestsParser nccl = new NcclTestsParser();
        out.addAll(BenchVerdicts.ncclBusbw("n1", nccl.parse("""
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                    1048576        262144     float     sum      -1    74.78   14.02   24.54    248    76.17   13.77   24.09      0
                # Out of bounds values : 248 FAILED
                # Avg bus bandwidth    : 24.3
                """), Optional.of(200.0), true));
        out.addAll(BenchVerdicts.ncclBusbw("n1", nccl.parse(RealSamples.body(
                "bench/nccltests/issue-nccl-1267-NET-IB-no-device-Using-network-Socket-gcp.txt")), Optional.empty(), true));
        out.addAll(BenchVerdicts.ncclBusbw("n1", nccl.parse("nothing\n"), Optional.of(200.0), false));
        // each failure kind as perftest reports it (BenchVerdicts passes its fix on unchanged)
        for (PerftestFailure.Kind k : PerftestFailure.Kind.values()) {
            out.add(new Finding(BenchVerdicts.RDMA_BW, dev.railyard.model.Severity.FAIL, k.name(), k.meaning(), "",
                    new PerftestFailure(k, 1, "x", "").fix()));
        }
        return out;
    }

    @Test
    void everyBenchFixIsRunnable() {
        List<Finding> findings = all();
        assertThat(findings.stream().filter(f -> !f.remediation().isEmpty())).hasSizeGreaterThan(25);
        for (Finding f : findings) RunnableFixes.assertRunnable(f);
    }

    @Test
    void noBenchFindingCarriesInternalJargon() {
        List<String> problems = new ArrayList<>();
        for (Finding f : all()) {
            problems.addAll(Jargon.in(f.id() + " " + f.subject(), String.join("\n", f.subject(), f.observed(),
                    f.expected(), f.remediation())));
        }
        assertThat(problems).isEmpty();
    }
}
