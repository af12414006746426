package dev.railyard.diagnose;

import dev.railyard.bench.Literals;
import dev.railyard.bench.TextLines;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;

/**
 * The troubleshooting rows of the seeds (and the error lines of the real samples) as data. Each rule fires once,
 * on the first line it matches, so a log with a thousand identical warnings gives one verdict. The seeds' "~1139
 * MB/s = 10G" row is not a line rule: PerftestRecogniser judges the bandwidth against the link rate.
 */
public final class DiagnosisCatalog {

    private static final String GOVERNOR_FIX =
            "echo performance | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor";

    private final List<DiagnosisRule> rules;
    /** Every rule's literals (see {@link LinePattern}), looked for in one pass per line. */
    private final Literals literals;
    /** Per rule, the bits of its literals in {@link #literals}; 0 for a rule tried on every line. */
    private final long[] ruleLiterals;

    public DiagnosisCatalog(List<DiagnosisRule> rules) {
        this.rules = List.copyOf(rules);
        List<String> all = new ArrayList<>();
        this.ruleLiterals = new long[rules.size()];
        for (int r = 0; r < rules.size(); r++) {
            for (String needle : LinePattern.needles(rules.get(r).pattern().pattern())) {
                int at = all.indexOf(needle);
                if (at < 0) {
                    at = all.size();
                    all.add(needle);
                }
                ruleLiterals[r] |= 1L << at;
            }
        }
        this.literals = new Literals(all);
    }

    public static DiagnosisCatalog standard() {
        return new DiagnosisCatalog(List.of(
                DiagnosisRule.of("perftest.port-down", "Port number \\d+ state is Down", Severity.FAIL,
                        "the HCA port perftest was told to use has no link: wrong port or no cable",
                        "check the cable; pass the port ibstat shows Active with --ib-port", "seed 000"),
                DiagnosisRule.of("perftest.no-gid", "Unable to find GID", Severity.FAIL,
                        "RoCE needs a GID index and none was given",
                        "add --gid-index=N: the RoCE v2 row with the IPv4 address in show_gids (the seed used 2)",
                        "seed 000"),
                DiagnosisRule.of("rping.rejected", "RDMA_CM_EVENT_REJECTED, error 8", Severity.FAIL,
                        "the rping server is not running", "start the server first (rping -s -a ADDR), then the client",
                        "seed 000"),
                DiagnosisRule.of(CheckId.RDMA_NO_DEVICES.id(), "No (?:RDMA|IB) devices found", Severity.FAIL,
                        "the RDMA driver is not loaded",
                        "sudo modprobe mlx4_ib (ConnectX-3) or mlx5_ib (ConnectX-4 and newer); list it in "
                                + "/etc/modules-load.d to keep it", "seed 000"),
                DiagnosisRule.of("perftest.cpu-frequency", "Conflicting CPU frequency values detected", Severity.WARN,
                        "the CPU governor is in power-saving mode; RDMA results stay valid (the NIC does the work)",
                        GOVERNOR_FIX, "seed 001"),
                DiagnosisRule.of("nccl.socket-fallback",
                        "NET/Socket|Using network Socket|NET/IB : No device found", Severity.FAIL,
                        "NCCL falls back to TCP sockets instead of IB/RoCE",
                        "check 'rdma link show' (ports ACTIVE), NCCL_IB_HCA names, MTU 9000 end to end, and that the "
                                + "firewall does not block RDMA", "seed 002"),
                DiagnosisRule.of("nccl.no-libibverbs", "Failed to open libibverbs\\.so", Severity.FAIL,
                        "NCCL cannot load libibverbs, so it cannot use IB/RoCE",
                        "install rdma-core / libibverbs1 (Debian) or rdma-core + libibverbs (RHEL)", "nccl-tests#291"),
                DiagnosisRule.of("ib.no-subnet-manager",
                        "\\bState:\\s*Initializing\\b|\\bPORT_INIT\\b", Severity.FAIL,
                        "the InfiniBand port is stuck at INIT: no subnet manager is running on the fabric",
                        "run exactly one OpenSM: sudo dnf/apt install opensm && sudo systemctl enable --now opensm",
                        "seed 003"),
                DiagnosisRule.of("perftest.no-connection",
                        "Couldn't connect to|Unable to init the socket connection", Severity.FAIL,
                        "the perftest client could not reach its server over TCP (server not started, wrong IP, "
                                + "or a firewall)", "start the server side first and check the address and firewall",
                        "realdata/perftest"),
                DiagnosisRule.of(CheckId.RDMA_RETRY_EXCEEDED.id(),
                        "completion\\b.*\\berror 12\\b|transport retry counter exceeded|status 12\\b", Severity.FAIL,
                        "transport retries exceeded: the peer stopped answering (link flap, wrong GID index, or "
                                + "lossy RoCE without PFC/ECN)",
                        "check ibstat on both ends, the GID index, and the switch's lossless settings",
                        "realdata/nccl-tests")));
    }

    public List<DiagnosisRule> rules() {
        return rules;
    }

    /** The first line each rule matches, in rule order. */
    public List<Diagnosis> match(TextLines text) {
        Diagnosis[] first = new Diagnosis[rules.size()];
        boolean everyLine = java.util.Arrays.stream(ruleLiterals).anyMatch(m -> m == 0);
        int open = rules.size();
        List<String> lines = text.lines();
        for (int i = 0; i < lines.size() && open > 0; i++) {
            long hits = literals.in(lines, i);
            if (hits == 0 && !everyLine) continue;
            String line = lines.get(i);
            for (int r = 0; r < first.length; r++) {
                if (first[r] != null || (ruleLiterals[r] != 0 && (ruleLiterals[r] & hits) == 0)) continue;
                DiagnosisRule rule = rules.get(r);
                if (rule.pattern().matcher(line).find()) {
                    first[r] = Diagnosis.of(rule.id(), rule.severity(), "input", rule.cause(), rule.fix(), i + 1,
                            line, rule.source());
                    open--;
                }
            }
        }
        List<Diagnosis> found = new ArrayList<>();
        for (Diagnosis d : first) if (d != null) found.add(d);
        return found;
    }
}
