package dev.railyard.diagnose;

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

    public DiagnosisCatalog(List<DiagnosisRule> rules) {
        this.rules = List.copyOf(rules);
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
                        "State:\\s*Initializing|PORT_INIT", Severity.FAIL,
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

    public List<Diagnosis> match(TextLines text) {
        List<Diagnosis> found = new ArrayList<>();
        for (DiagnosisRule rule : rules) {
            for (int i = 1; i <= text.lines().size(); i++) {
                String line = text.line(i);
                if (rule.pattern().matcher(line).find()) {
                    found.add(Diagnosis.of(rule.id(), rule.severity(), "input", rule.cause(), rule.fix(), i, line,
                            rule.source()));
                    break;
                }
            }
        }
        return found;
    }
}
