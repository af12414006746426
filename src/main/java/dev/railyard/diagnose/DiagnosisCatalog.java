package dev.railyard.diagnose;

import dev.railyard.bench.Literals;
import dev.railyard.bench.TextLines;
import dev.railyard.check.Fix;
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
            "for g in /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor; do echo performance > \"$g\"; done";
    /** Where the ConnectX-3 rows come from, named by hardware. */
    private static final String CX3_ROCE = "two V100 nodes on ConnectX-3 Pro RoCE";

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
                        "# check the cable; pass a port that shows PORT_ACTIVE with --ib-port:\n"
                                + "ibv_devinfo | grep -E 'hca_id|port:|state'", CX3_ROCE),
                DiagnosisRule.of("perftest.no-gid", "Unable to find GID", Severity.FAIL,
                        "RoCE needs a GID index and none was given",
                        "# pass --gid-index: the RoCE v2 GID of the netdev's IPv4 address (index 2 on ConnectX-3 "
                                + "Pro); railyard reports it:\nrailyard check --only rdma.roce.gid", CX3_ROCE),
                DiagnosisRule.of("rping.rejected", "RDMA_CM_EVENT_REJECTED, error 8", Severity.FAIL,
                        "the rping server is not running",
                        "# start the server first on the other node (rping -s -a with its own address), then the "
                                + "client; the ports:\nrdma link show", CX3_ROCE),
                DiagnosisRule.of(CheckId.RDMA_NO_DEVICES.id(), "No (?:RDMA|IB) devices found", Severity.FAIL,
                        "the RDMA driver is not loaded",
                        "modprobe -a mlx4_ib mlx5_ib\nprintf 'mlx4_ib\\nmlx5_ib\\n' > /etc/modules-load.d/rdma.conf\n"
                                + "ibv_devices", CX3_ROCE),
                DiagnosisRule.of("perftest.cpu-frequency", "Conflicting CPU frequency values detected", Severity.WARN,
                        "the CPU governor is in power-saving mode; RDMA results stay valid (the NIC does the work)",
                        GOVERNOR_FIX, CX3_ROCE),
                DiagnosisRule.of("nccl.socket-fallback",
                        "NET/Socket|Using network Socket|NET/IB : No device found", Severity.FAIL,
                        "NCCL falls back to TCP sockets instead of IB/RoCE",
                        "# NCCL needs ACTIVE ports, NCCL_IB_HCA naming them, and one MTU (9000) end to end:\n"
                                + "rdma link show\nprintenv | grep '^NCCL_'\nip -br link",
                        "two DGX Spark (GB10) nodes on ConnectX-7 RoCE"),
                DiagnosisRule.of("nccl.no-libibverbs", "Failed to open libibverbs\\.so", Severity.FAIL,
                        "NCCL cannot load libibverbs, so it cannot use IB/RoCE",
                        "command -v apt-get >/dev/null && apt-get install -y rdma-core libibverbs1 "
                                + "|| dnf install -y rdma-core libibverbs", "nccl-tests#291"),
                DiagnosisRule.of("ib.no-subnet-manager",
                        "\\bState:\\s*Initializing\\b|\\bPORT_INIT\\b", Severity.FAIL,
                        "the InfiniBand port is stuck at INIT: no subnet manager is running on the fabric",
                        Fix.START_SUBNET_MANAGER,
                        "Dell R720/R730 nodes on ConnectX-4 InfiniBand QDR"),
                DiagnosisRule.of("perftest.no-connection",
                        "Couldn't connect to|Unable to init the socket connection", Severity.FAIL,
                        "the perftest client could not reach its server over TCP (server not started, wrong IP, "
                                + "or a firewall)", "# start the server side first; its address must answer from here "
                                + "and its port be open in the firewall:\nip -br addr",
                        "realdata/perftest"),
                DiagnosisRule.of("rdma.qp-rtr",
                        "ailed to modify QP(?: \\d+)? (?:state )?to RTR|Failed to modify QP \\(|"
                                + "ibv_modify_qp\\([^)]*RTR\\) failed|Unable to Connect the HCA's through the link",
                        Severity.FAIL,
                        "the queue pair could not move to Ready-To-Receive: the peer's address does not work on this "
                                + "port. On RoCE the GID index is not the RoCE v2 address of the interface (or the "
                                + "port requires a GRH the program does not set); on InfiniBand the peer's LID is "
                                + "wrong or no subnet manager gave one; or the path MTU is larger than the port's",
                        Fix.lines("show_gids   # the RoCE v2 GID index of the interface's IPv4 address",
                                "ibv_devinfo -v | grep -E 'hca_id|port:|state|active_mtu|sm_lid|port_lid'",
                                Fix.note("pass that GID index (ib_write_bw -x N, NCCL_IB_GID_INDEX=N), use the same "
                                        + "MTU on both ends, and make sure a subnet manager runs on InfiniBand")),
                        "realdata/perftest"),
                DiagnosisRule.of("nccl.system-error", "Test NCCL failure .*'unhandled system error'",
                        Severity.FAIL,
                        "NCCL failed on a system call: most often the IB/RoCE transport could not be set up between "
                                + "the hosts (a port that is down, a wrong NCCL_IB_HCA, or no shared interface for "
                                + "the bootstrap socket)",
                        Fix.lines("export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET   # NCCL names the call that failed",
                                "ibv_devinfo | grep -E 'hca_id|state'", "printenv | grep '^NCCL_'"),
                        "nccl-tests#36"),
                DiagnosisRule.of("ucx.unreachable", "Destination is unreachable", Severity.FAIL,
                        "UCX found no transport that reaches the peer: the device in UCX_NET_DEVICES is down or on "
                                + "another subnet than the peer's",
                        Fix.lines("ucx_info -d | grep -E 'Transport|Device'", "ibv_devinfo | grep -E 'hca_id|state'",
                                Fix.note("set UCX_NET_DEVICES to an ACTIVE port both hosts share, e.g. mlx5_0:1")),
                        "openucx/ucx#10738"),
                DiagnosisRule.of(CheckId.RDMA_RETRY_EXCEEDED.id(),
                        "completion\\b.*\\berror 12\\b|transport retry counter exceeded|status 12\\b", Severity.FAIL,
                        "transport retries exceeded: the peer stopped answering (link flap, wrong GID index, or "
                                + "lossy RoCE without PFC/ECN)",
                        "# on both ends: port state, GID index and MTU; RoCE needs a lossless switch (PFC/ECN):\n"
                                + "railyard check --only rdma.",
                        "realdata/nccl-tests")));
    }

    public List<DiagnosisRule> rules() {
        return rules;
    }

    /** The first line each rule matches, in rule order. */
    public List<Diagnosis> match(TextLines text) {
        Scan scan = scan();
        List<String> lines = text.lines();
        for (int i = 0; i < lines.size() && !scan.done(); i++) scan.line(lines.get(i), i + 1);
        return scan.found();
    }

    /** A scan that takes the lines one at a time, for input too large to hold. */
    Scan scan() {
        return new Scan();
    }

    final class Scan {
        private final Diagnosis[] first = new Diagnosis[rules.size()];
        private final boolean everyLine = java.util.Arrays.stream(ruleLiterals).anyMatch(m -> m == 0);
        private int open = rules.size();

        boolean done() {
            return open == 0;
        }

        void line(String line, int n) {
            if (open == 0) return;
            long hits = literals.in(line);
            if (hits == 0 && !everyLine) return;
            for (int r = 0; r < first.length; r++) {
                if (first[r] != null || (ruleLiterals[r] != 0 && (ruleLiterals[r] & hits) == 0)) continue;
                DiagnosisRule rule = rules.get(r);
                if (rule.pattern().matcher(line).find()) {
                    first[r] = Diagnosis.of(rule.id(), rule.severity(), "input", rule.cause(), rule.fix(), n,
                            line, rule.source());
                    open--;
                }
            }
        }

        List<Diagnosis> found() {
            List<Diagnosis> out = new ArrayList<>();
            for (Diagnosis d : first) if (d != null) out.add(d);
            return out;
        }
    }
}
