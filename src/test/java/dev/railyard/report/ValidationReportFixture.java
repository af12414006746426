package dev.railyard.report;

import dev.railyard.model.Culprit;
import dev.railyard.model.CulpritKind;
import dev.railyard.model.Finding;
import dev.railyard.model.Measurement;
import dev.railyard.model.NodeFacts;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.PairTest;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.model.SizeCurve;
import dev.railyard.model.ValidationReport;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A hand-built validate run shaped like the V100 homelab example grown to four nodes: two RoCE rails at 40 Gb/s, the
 * cable between gpu1 and gpu3 on rail0 negotiated at 10G (~1139 MB/s, the homelab write-up's "bad cable" figure, retested, named the
 * culprit), gpu4's sshd down (unreachable: its pairs not run, one failed). Strings carry HTML and Markdown
 * characters so every form's escaping is exercised.
 */
public final class ValidationReportFixture {

    public static final Instant START = Instant.parse("2026-11-22T21:04:05Z");
    public static final String RUN_ID = "20261122T210405Z-homelab";
    public static final List<String> NODES = List.of("gpu1", "gpu2", "gpu3", "gpu4");

    private ValidationReportFixture() {
    }

    public static ValidationReport report() {
        List<PairResult> pairs = new ArrayList<>();
        List<Finding> pairFindings = new ArrayList<>();
        Instant t = START.plusSeconds(30);
        // Round-robin over the three reachable nodes: 3 rounds of one pair each (gpu4 sits every round out).
        String[][] rounds = {{"gpu1", "gpu2"}, {"gpu1", "gpu3"}, {"gpu2", "gpu3"}};
        for (int round = 0; round < rounds.length; round++) {
            String client = rounds[round][0];
            String server = rounds[round][1];
            boolean bad = client.equals("gpu1") && server.equals("gpu3");
            double bw = bad ? 9.10 : round == 0 ? 36.43 : 36.38;
            t = pair(pairs, pairFindings, "rail0", client, server, "10.0.0.", PairKind.RDMA_BANDWIDTH, round + 1, bw, t,
                    36.0, bad);
            t = pair(pairs, pairFindings, "rail0", client, server, "10.0.0.", PairKind.RDMA_LATENCY, round + 1,
                    bad ? 1.02 : 0.85, t, 2.0, false);
            t = pair(pairs, pairFindings, "rail1", client, server, "10.0.1.", PairKind.TCP_BANDWIDTH, round + 1,
                    round == 2 ? 26.9 : 27.4, t, 20.0, false);
        }
        PairTest unreachable = new PairTest("rail1", "gpu2", "gpu4", "10.0.1.4", PairKind.TCP_BANDWIDTH);
        pairs.add(new PairResult(unreachable, 3, 1,
                new PairOutcome.Failed("ssh: connect to host 192.168.1.74 port 22: Connection refused"), t,
                Duration.ofMillis(40)));
        pairFindings.add(Finding.of("bench.tcp.bw", Severity.UNKNOWN, unreachable.subject(),
                "no number: ssh: connect to host 192.168.1.74 port 22: Connection refused", "≥ 20.0 Gb/s", ""));

        Culprit cable = new Culprit(CulpritKind.LINK, "rail0", List.of("gpu1", "gpu3"), Severity.FAIL,
                "rail0 gpu1<->gpu3 9.10 Gb/s and 9.12 Gb/s on retest against ≥ 36.0 Gb/s; gpu1 and gpu3 reach 36.4 Gb/s "
                        + "with gpu2 (25% of line rate: a 40G port negotiated at 10G)",
                "ethtool ens6d1 | grep Speed   # on gpu1 and gpu3: expect 40000Mb/s\n"
                        + "reseat or replace the QSFP+ cable between gpu1 and gpu3 (rail0, ens6d1)");

        List<NodeOutcome> nodes = List.of(
                node("gpu1", List.of(Finding.pass("host.memlock", "gpu1", "unlimited", "unlimited"),
                        Finding.pass("rdma.roce.gid", "gpu1 mlx4_0:2", "index 2 RoCEv2 10.0.0.1", "a RoCEv2 IPv4 GID"))),
                node("gpu2", List.of(Finding.of("host.cpu.governor", Severity.WARN, "gpu2", "powersave", "performance",
                        "cpupower frequency-set -g performance"),
                        // A tool's output pasted into a finding: shown as text, never run (the browser test would
                        // see the failed image load and the console error if it were markup).
                        Finding.of("gpu.xid", Severity.INFO, "gpu2 GPU0",
                                "NVRM: Xid 13 <img src=x onerror=\"console.error('xss')\"> | *not* `code`",
                                "no Xid", ""))),
                node("gpu3", List.of(Finding.pass("host.memlock", "gpu3", "unlimited", "unlimited"))),
                new NodeOutcome("gpu4", NodeStatus.UNREACHABLE,
                        "ssh: connect to host 192.168.1.74 port 22: Connection refused", List.of(), Optional.empty()));
        List<Finding> cluster = List.of(
                Finding.pass("cluster.mtu", "rail0", "9000 on gpu1, gpu2, gpu3", "9000"),
                Finding.of("cluster.versions", Severity.UNKNOWN, "gpu4", "not reached: <no inventory> & \"no facts\"",
                        "the same driver, CUDA, NCCL and firmware as gpu1", ""));
        List<Finding> bench = List.of(Finding.of("bench.nccl.busbw", Severity.PASS, "all_reduce 3 nodes × 2 GPUs",
                "4.31 GB/s at 1 GiB", "≥ 4.0 GB/s", ""));
        List<SizeCurve> curves = List.of(
                new SizeCurve("NCCL all_reduce busbw", "gpu1, gpu2, gpu3 (6 ranks)", "GB/s", List.of(
                        new SizeCurve.Point(8, 0.0), new SizeCurve.Point(1024, 0.02), new SizeCurve.Point(65536, 0.71),
                        new SizeCurve.Point(1 << 20, 2.65), new SizeCurve.Point(16 << 20, 3.98),
                        new SizeCurve.Point(1L << 30, 4.31))),
                new SizeCurve("ib_write_bw -a", "rail0 gpu1<->gpu2", "Gb/s", List.of(
                        new SizeCurve.Point(2, 0.05), new SizeCurve.Point(256, 5.9), new SizeCurve.Point(4096, 31.7),
                        new SizeCurve.Point(65536, 36.3), new SizeCurve.Point(8 << 20, 36.43))));
        return new ValidationReport(ValidationReport.SCHEMA_VERSION, RUN_ID, "homelab-v100 <4 nodes>", "ssh", START,
                Optional.of(START.plus(Duration.ofSeconds(212))), true, 3, nodes, cluster, pairs, pairFindings,
                List.of(cable), bench, curves, List.of(
                        new Measurement("NCCL all_reduce busbw at 1 GiB", "gpu1, gpu2, gpu3 (6 ranks)", 4.31, "GB/s"),
                        new Measurement("GPU copy host->device", "gpu1 GPU0", 11.8, "GB/s"),
                        new Measurement("GPU copy host->device", "gpu1 GPU1", 6.1, "GB/s"),
                        new Measurement("GPU copy host->device", "gpu2 GPU0", 11.9, "GB/s")));
    }

    private static Instant pair(List<PairResult> pairs, List<Finding> findings, String network, String client,
                                String server, String prefix, PairKind kind, int round, double value, Instant at,
                                double expect, boolean bad) {
        PairTest test = new PairTest(network, client, server, prefix + server.substring(3), kind);
        pairs.add(new PairResult(test, round, 1, new PairOutcome.Measured(value), at, Duration.ofSeconds(5)));
        at = at.plusSeconds(6);
        double judged = value;
        if (bad) {
            judged = value + 0.02;
            pairs.add(new PairResult(test, round, 2, new PairOutcome.Measured(judged), at, Duration.ofSeconds(5)));
            at = at.plusSeconds(6);
        }
        String bound = (kind.higherIsBetter() ? "≥ " : "≤ ") + Quantities.number(expect) + " " + kind.unit();
        boolean below = kind.higherIsBetter() ? judged < expect : judged > expect;
        findings.add(Finding.of(kind.checkId(), below ? Severity.FAIL : Severity.PASS, test.subject(),
                Quantities.number(judged) + " " + kind.unit(), bound,
                below ? "ethtool ens6d1 | grep Speed on " + client + " and " + server : ""));
        return at;
    }

    private static NodeOutcome node(String name, List<Finding> findings) {
        NodeFacts facts = new NodeFacts(name, name + ".lab", Reading.of("580.95.05"), Reading.of("13.0"),
                Reading.absent("libnccl.so.2 not found"), Map.of("mlx4_0", Reading.of("2.42.5000")),
                List.of(new NodeFacts.Netdev("ens6d1", Reading.of(9000), Reading.of("up"),
                        Reading.of(List.of("10.0.0." + name.substring(3) + "/24")))));
        return new NodeOutcome(name, NodeStatus.COMPLETED, "", findings, Optional.of(facts));
    }
}
