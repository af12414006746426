package dev.railyard.cluster;

import dev.railyard.bench.perftest.PerftestParser;
import dev.railyard.check.BenchVerdicts;
import dev.railyard.check.NcclBenchVerdict;
import dev.railyard.check.StorageSeqVerdict;
import dev.railyard.check.TcpBenchVerdict;
import dev.railyard.check.rules.NcclBusbwRule;
import dev.railyard.diagnose.DiagnoseTargets;
import dev.railyard.diagnose.Diagnoser;
import dev.railyard.diagnose.Diagnosis;
import dev.railyard.model.CheckId;
import dev.railyard.model.BandwidthResult;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.LatencyResult;
import dev.railyard.model.LatencyStats;
import dev.railyard.model.PairKind;
import dev.railyard.model.Reading;
import dev.railyard.model.ReceiverReport;
import dev.railyard.model.StopReason;
import dev.railyard.model.Finding;
import dev.railyard.model.FioDirection;
import dev.railyard.model.FioJob;
import dev.railyard.report.Json;
import dev.railyard.model.NcclBenchResult;
import dev.railyard.model.NcclSizeResult;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.Severity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same benchmark result through every path that judges its ID gives one severity and one fix: `bench` (the
 * command's verdict on its own run), `validate` (the bench stage or the pair judge, on what the nodes returned) and
 * `diagnose` (the same numbers pasted as the anchor tool prints them).
 */
class OneBenchVerdictPerFactsTest {

    /**
     * One node's NCCL all_reduce over two GPUs: busbw at the largest size, wrong elements, the spec's floor. bench
     * nccl judges its sweep, validate's NCCL step the sweep its node returned, diagnose the nccl-tests table.
     */
    @ParameterizedTest(name = "busbw {0} wrong {1} floor {2}")
    @CsvSource({
            "180.5, 0, 150, PASS",
            "120.25, 0, 150, FAIL",
            "120.25, 0, -, INFO",
            "180.5, 7, 150, FAIL",
    })
    void anNcclSweepIsJudgedAlikeEverywhere(double busbw, long wrong, String floorText, Severity want) throws Exception {
        Optional<Double> floor = floorText.equals("-") ? Optional.empty() : Optional.of(Double.parseDouble(floorText));
        NcclSizeResult.Timing t = new NcclSizeResult.Timing(6300, busbw, busbw, wrong);
        NcclBenchResult sweep = new NcclBenchResult("all_reduce", 2, List.of("0 [0000:3b:00.0]", "1 [0000:5e:00.0]"),
                "2.28.3", List.of(new NcclSizeResult(1L << 30, 1L << 28, "float", "sum", -1, t, Optional.empty())),
                busbw, true);

        List<Finding> bench = NcclBenchVerdict.judge("2 GPUs of this node", sweep, floor, NcclBusbwRule.Span.ONE_NODE);
        List<Finding> validate = validateNccl(sweep, floor);
        List<Finding> diagnose = Diagnoser.standard().diagnose(ncclTests(busbw, wrong),
                        new DiagnoseTargets(Optional.empty(), 0.9, 2.0, floor, true, Optional.empty()))
                .diagnoses().stream().map(Diagnosis::finding)
                .filter(f -> f.id().equals(CheckId.BENCH_NCCL_BUSBW.id())).toList();

        for (List<Finding> path : List.of(bench, validate, diagnose)) {
            assertThat(worst(path)).as("%s", path).isEqualTo(want);
        }
        assertThat(fixes(validate)).isEqualTo(fixes(bench));
        assertThat(fixes(diagnose)).isEqualTo(fixes(bench));
    }

    /**
     * One TCP bandwidth through `bench tcp` and through validate's pair judge, the spec giving expect.tcp_gbps: the
     * same floor, the same verdict, the same fix. Every pair of the fleet measures the same, so half the fleet's
     * median never decides here.
     */
    @ParameterizedTest(name = "{0} Gb/s, floor {1}")
    @CsvSource({"27.4, 35, FAIL", "27.4, 20, PASS", "36.2, 35, PASS"})
    void aTcpBandwidthIsJudgedAlikeByBenchAndValidate(double gbps, double floor, Severity want) {
        BandwidthResult b = new BandwidthResult("10.0.0.2", 5201, 1, 131072, 10, List.of(), (long) (gbps * 1.25e9), gbps,
                Reading.of(new ReceiverReport((long) (gbps * 1.25e9), 10, gbps)), StopReason.of(StopReason.Kind.DURATION));
        Finding bench = TcpBenchVerdict.judge("10.0.0.2:5201", b, Optional.of(floor), Optional.empty()).getFirst();
        Finding validate = pair(PairKind.TCP_BANDWIDTH, gbps, expect(Optional.of(floor), Optional.empty(), 2.0));
        assertThat(List.of(bench.severity(), validate.severity())).containsOnly(want);
        assertThat(validate.remediation()).isEqualTo(bench.remediation());
    }

    /** One TCP one-way latency through `bench tcp` and validate's pair judge, the spec giving expect.tcp_latency_us. */
    @ParameterizedTest(name = "{0} us, ceiling {1}")
    @CsvSource({"21.9, 10, FAIL", "21.9, 25, PASS"})
    void aTcpLatencyIsJudgedAlikeByBenchAndValidate(double us, double ceiling, Severity want) {
        LatencyResult l = new LatencyResult("10.0.0.2", 5201, 64, 0.4, 10,
                new LatencyStats(1000, us - 1, us, us, us + 5, us + 10, us + 20), LatencyResult.BASIS, List.of(),
                StopReason.of(StopReason.Kind.DURATION));
        Finding bench = TcpBenchVerdict.judge("10.0.0.2:5201", l, Optional.empty(), Optional.of(ceiling)).getFirst();
        Finding validate = pair(PairKind.TCP_LATENCY, us, expect(Optional.empty(), Optional.of(ceiling), 2.0));
        assertThat(List.of(bench.severity(), validate.severity())).containsOnly(want);
        assertThat(validate.remediation()).isEqualTo(bench.remediation());
    }

    /** One RDMA latency through `bench rdma`, validate's pair judge and a pasted ib_write_lat, against expect.rdma_latency_us. */
    @ParameterizedTest(name = "{0} us, ceiling {1}")
    @CsvSource({"0.88, 2.0, PASS", "2.6, 2.0, FAIL"})
    void anRdmaLatencyIsJudgedAlikeEverywhere(double us, double ceiling, Severity want) {
        String table = "---------------------------------------------------------------------------------------\n"
                + " #bytes        #iterations       t_avg[usec]    t_stdev[usec]\n"
                + String.format(Locale.ROOT, " 2             1000              %.2f           0.05%n", us)
                + "---------------------------------------------------------------------------------------\n";
        Finding bench = BenchVerdicts.rdmaLatency("mlx4_0:2", new PerftestParser().parse(table), ceiling);
        Finding validate = pair(PairKind.RDMA_LATENCY, us, expect(Optional.empty(), Optional.empty(), ceiling));
        Finding diagnose = Diagnoser.standard().diagnose(table,
                        new DiagnoseTargets(Optional.empty(), 0.9, ceiling, Optional.empty(), true, Optional.empty()))
                .diagnoses().stream().map(Diagnosis::finding)
                .filter(f -> f.id().equals(CheckId.BENCH_RDMA_LAT.id())).findFirst().orElseThrow();
        assertThat(List.of(bench.severity(), validate.severity(), diagnose.severity())).containsOnly(want);
        assertThat(List.of(validate.remediation(), diagnose.remediation())).containsOnly(bench.remediation());
    }

    /**
     * One sequential write through `bench storage`, validate --full's storage step (the node runs bench storage with
     * the floor validate hands it) and a pasted fio JSON, the spec giving expect.storage_seq_mbps.
     */
    @ParameterizedTest(name = "{0} KiB/s, floor {1} MB/s")
    @CsvSource({"921600, 2000, FAIL", "2150400, 2000, PASS"})
    void aSequentialWriteIsJudgedAlikeEverywhere(long kibps, double floorMbps, Severity want) throws Exception {
        FioDirection none = new FioDirection(0, 0, 0, OptionalDouble.empty(), OptionalDouble.empty(),
                OptionalDouble.empty(), OptionalDouble.empty());
        FioDirection write = new FioDirection(kibps, kibps / 1024.0, 1L << 30, OptionalDouble.empty(),
                OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty());
        FioJob job = new FioJob("write_test", "write", none, write);
        // bench storage's floor: the spec's MB/s in fio's MiB/s
        Finding bench = new StorageSeqVerdict(floorMbps * 1e6 / 1_048_576.0).judge("/var/tmp", job);

        ClusterSpec.Expect e = ClusterSpec.Expect.defaults();
        ClusterSpec.Expect expect = new ClusterSpec.Expect(e.rdmaBwEfficiency(), e.rdmaLatencyUs(), e.gpuTempWarnC(),
                e.netBufferBytes(), e.ncclBusbwGBps(), Optional.of(floorMbps));
        NodeRequest.Storage sent = storageRequest(expect);
        Finding validate = new StorageSeqVerdict(sent.expectMbps().map(mb -> mb * 1e6 / 1_048_576.0))
                .judge("/var/tmp", job);

        String paste = "{\n  \"fio version\" : \"fio-3.36\",\n  \"jobs\" : [{\"jobname\" : \"write_test\", \"error\" : 0, "
                + "\"job options\" : {\"rw\" : \"write\"}, \"read\" : {\"bw\" : 0, \"iops\" : 0}, "
                + "\"write\" : {\"bw\" : " + kibps + ", \"iops\" : " + kibps / 1024 + ", \"io_bytes\" : 1073741824}}]\n}\n";
        Finding diagnose = Diagnoser.standard().diagnose(paste, DiagnoseTargets.from(expect)).diagnoses().stream()
                .map(Diagnosis::finding).filter(f -> f.id().equals(CheckId.BENCH_STORAGE_SEQ.id())).findFirst()
                .orElseThrow();
        assertThat(List.of(bench.severity(), validate.severity(), diagnose.severity())).as("%s", diagnose)
                .containsOnly(want);
        assertThat(List.of(validate.remediation(), diagnose.remediation())).containsOnly(bench.remediation());
    }

    /** The storage step validate --full sends to a node, read back as the node reads it. */
    private static NodeRequest.Storage storageRequest(ClusterSpec.Expect expect) throws Exception {
        ClusterSpec s = PairFixtures.spec(1, 1, false);
        ClusterSpec spec = new ClusterSpec(s.cluster(), s.source(), s.nodes(), s.gpus(), s.networks(), expect, s.slurm(),
                s.sshUser(), s.ssh(), s.agent());
        List<List<String>> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
        Launcher recording = new Launcher() {
            @Override public String name() { return "recording"; }
            @Override public StepResult prepare(ClusterSpec.Node node, Duration timeout) { return run(node, List.of(), timeout); }
            @Override public StepResult run(ClusterSpec.Node node, List<String> args, Duration timeout) {
                sent.add(List.copyOf(args));
                return new StepResult(node.name(), args, StepStatus.EXITED, 2, "", "railyard: it broke", Duration.ofMillis(3), "");
            }
            @Override public RemoteProcess start(ClusterSpec.Node node, List<String> args, Duration timeout) {
                StepResult r = run(node, args, timeout);
                return new RemoteProcess() {
                    @Override public boolean isAlive() { return false; }
                    @Override public StepResult await(Duration t) { return r; }
                    @Override public void close() { }
                };
            }
            @Override public void close() { }
        };
        NodeStage.NodeResult node = new NodeStage.NodeResult(new NodeOutcome("n001", NodeStatus.COMPLETED, "", List.of(),
                Optional.empty()), Optional.of(new com.fasterxml.jackson.databind.ObjectMapper().readTree("{}")));
        new BenchStage(recording, spec, ValidateSettings.of(true, 2, Duration.ofSeconds(30)), new StepSlots(2),
                Progress.none(), List.of("railyard", "validate")).run(List.of(node), new BenchStage.Output());
        return sent.stream().filter(a -> a.size() > 1 && a.get(0).equals("bench") && a.get(1).equals("storage"))
                .map(a -> (NodeRequest.Storage) NodeArgv.read(a)).findFirst().orElseThrow();
    }

    /**
     * One device's PCIe link below its capability, as lspci -vv shows it and as the kernel logs it at boot: the same
     * WARN and the same fix for that device, whichever way its address is written.
     */
    @ParameterizedTest(name = "x{0} of x{1}")
    @CsvSource({"1, 16, WARN", "16, 16, PASS"})
    void aNarrowPcieLinkIsJudgedAlikeFromLspciAndTheKernelLog(int width, int cap, Severity want) {
        String lspci = "01:00.0 Ethernet controller: Mellanox Technologies MT27520 Family [ConnectX-3 Pro]\n"
                + "\t\tLnkCap:\tPort #0, Speed 8GT/s, Width x" + cap + ", ASPM L0s, Exit Latency L0s unlimited\n"
                + "\t\tLnkSta:\tSpeed 8GT/s, Width x" + width + ", TrErr- Train- SlotClk+ DLActive- BWMgmt- ABWMgmt-\n";
        Finding fromLspci = Diagnoser.standard().diagnose(lspci).diagnoses().stream().map(Diagnosis::finding)
                .filter(f -> f.id().equals(CheckId.HOST_PCIE_LINK.id())).findFirst().orElseThrow();
        assertThat(fromLspci.severity()).isEqualTo(want);
        if (want == Severity.PASS) return; // the kernel logs only a link below what the device can do
        String kernel = String.format(Locale.ROOT, "[    0.499779] pci 0000:01:00.0: %.3f Gb/s available PCIe bandwidth, "
                + "limited by 8.0 GT/s PCIe x%d link at 0000:00:00.0 (capable of %.3f Gb/s with 8.0 GT/s PCIe x%d link)%n",
                7.876 * width, width, 7.876 * cap, cap);
        Finding fromKernel = Diagnoser.standard().diagnose(kernel).diagnoses().stream().map(Diagnosis::finding)
                .filter(f -> f.id().equals(CheckId.HOST_PCIE_LINK.id())).findFirst().orElseThrow();
        assertThat(fromKernel.severity()).isEqualTo(want);
        assertThat(fromKernel.remediation()).isEqualTo(fromLspci.remediation());
    }

    private static ClusterSpec.Expect expect(Optional<Double> tcpGbps, Optional<Double> tcpLatencyUs, double rdmaLatencyUs) {
        ClusterSpec.Expect d = ClusterSpec.Expect.defaults();
        return new ClusterSpec.Expect(d.rdmaBwEfficiency(), rdmaLatencyUs, d.gpuTempWarnC(), d.netBufferBytes(),
                d.ncclBusbwGBps(), d.storageSeqMBps(), tcpGbps, tcpLatencyUs);
    }

    /** validate's verdict on the pair n001<->n002 when every pair of four nodes on rail0 measured {@code value}. */
    private static Finding pair(PairKind kind, double value, ClusterSpec.Expect expect) {
        ClusterSpec s = PairFixtures.spec(4, 1, true);
        ClusterSpec spec = new ClusterSpec(s.cluster(), s.source(), s.nodes(), s.gpus(), s.networks(), expect, s.slurm(),
                s.sshUser(), s.ssh(), s.agent());
        PairJudge judge = new PairJudge(spec, PairJudge.DEFAULT_LATENCY_K);
        List<Finding> f = PairJudge.findings(judge.judgeLatest(
                PairFixtures.allPairs("rail0", PairFixtures.names(4), kind, (a, b) -> value)));
        return f.stream().filter(x -> x.subject().equals("rail0 n001<->n002")).findFirst()
                .or(() -> f.stream().filter(x -> x.severity() == Severity.PASS && x.subject().equals("rail0")).findFirst())
                .orElseThrow(() -> new AssertionError("no verdict on rail0 n001<->n002 among " + f));
    }

    /** validate's NCCL step on one node with two GPUs, whose ranks return this sweep as bench nccl prints it. */
    private static List<Finding> validateNccl(NcclBenchResult sweep, Optional<Double> floor) throws Exception {
        ClusterSpec s = PairFixtures.spec(1, 1, false);
        ClusterSpec.Expect e = s.expect();
        ClusterSpec spec = new ClusterSpec(s.cluster(), s.source(), s.nodes(), s.gpus(), s.networks(),
                new ClusterSpec.Expect(e.rdmaBwEfficiency(), e.rdmaLatencyUs(), e.gpuTempWarnC(), e.netBufferBytes(),
                        floor, e.storageSeqMBps()), s.slurm(), s.sshUser(), s.ssh(), s.agent());
        String json = Json.write(sweep);
        Launcher ranks = new Launcher() {
            @Override public String name() { return "ranks"; }
            @Override public StepResult prepare(ClusterSpec.Node node, Duration timeout) { return run(node, List.of(), timeout); }
            @Override public StepResult run(ClusterSpec.Node node, List<String> args, Duration timeout) {
                return new StepResult(node.name(), args, StepStatus.EXITED, 0, json, "", Duration.ofMillis(3), "");
            }
            @Override public RemoteProcess start(ClusterSpec.Node node, List<String> args, Duration timeout) {
                StepResult r = run(node, args, timeout);
                return new RemoteProcess() {
                    @Override public boolean isAlive() { return false; }
                    @Override public StepResult await(Duration t) { return r; }
                    @Override public void close() { }
                };
            }
            @Override public void close() { }
        };
        BenchStage.Output out = new BenchStage.Output();
        NodeStage.NodeResult node = new NodeStage.NodeResult(new NodeOutcome("n001", NodeStatus.COMPLETED, "", List.of(),
                Optional.empty()), Optional.of(new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                "{\"gpu\": {\"nvml\": {\"driverVersion\": \"580.1\"}, \"gpus\": [{}, {}]}}")));
        new BenchStage(ranks, spec, ValidateSettings.of(false, 4, Duration.ofSeconds(30)), new StepSlots(4),
                Progress.none(), List.of("railyard", "validate")).nccl(List.of(node), out);
        return out.findings().stream().filter(f -> f.id().equals(CheckId.BENCH_NCCL_BUSBW.id())).toList();
    }

    /** nccl-tests' all_reduce_perf output of the same run: two ranks on one host, one row at 1 GiB. */
    private static String ncclTests(double busbw, long wrong) {
        return "# nThread 1 nGpus 2 minBytes 1073741824 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20 "
                + "agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n"
                + "#  Rank  0 Group  0 Pid   4242 on gpuserver1 device  0 [0000:3b:00] NVIDIA H100 80GB HBM3\n"
                + "#  Rank  1 Group  0 Pid   4242 on gpuserver1 device  1 [0000:5e:00] NVIDIA H100 80GB HBM3\n"
                + "#\n#                                                              out-of-place                       in-place\n"
                + "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                + "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n"
                + String.format(Locale.ROOT, "  1073741824     268435456     float     sum      -1   6300.0  %7.2f  %7.2f %6d   6300.0  %7.2f  %7.2f      0%n",
                        busbw, busbw, wrong, busbw, busbw)
                + "# Out of bounds values : " + (wrong > 0 ? wrong + " FAILED" : "0 OK") + "\n"
                + String.format(Locale.ROOT, "# Avg bus bandwidth    : %.2f%n#%n", busbw);
    }

    private static Severity worst(List<Finding> findings) {
        return findings.stream().map(Finding::severity).reduce(Severity.PASS, Severity::max);
    }

    /** The fixes a path's findings carry, each once. */
    private static List<String> fixes(List<Finding> findings) {
        return findings.stream().map(Finding::remediation).filter(f -> !f.isEmpty()).distinct().sorted().toList();
    }
}
