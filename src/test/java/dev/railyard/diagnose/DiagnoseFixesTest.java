package dev.railyard.diagnose;

import dev.railyard.Jargon;
import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;
import dev.railyard.bench.ibtools.KernelEvent;
import dev.railyard.check.RunnableFixes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every branch of diagnose's own recognisers that gives a fix, each fed an input that reaches it (the real samples
 * reach only some of them: cli.DiagnoseCorpusJargonTest runs those), gives runnable lines: commands, and "# " lines
 * only to explain them. Every failure is listed at once.
 */
class DiagnoseFixesTest {

    private final List<String> problems = new ArrayList<>();
    private int fixes;

    /** A paste, and a piece of the cause (or subject) of the verdict whose fix the case is about. */
    private record Case(String name, String text, String verdict) {}

    private static final List<Case> PASTES = List.of(
            // kernel log: link events (a netdev, an RDMA port, a netdev name no shell should run)
            new Case("netdev down", "[   12.5] mlx5_core 0000:9d:00.1 enp157s0f1np1: Link down\n", "DOWN"),
            new Case("rdma port down", "[   12.5] mlx5_core 0000:01:00.0: mlx5_5: Port: 1 Link DOWN\n", "DOWN"),
            new Case("odd netdev name", "[   12.5] mlx5_core 0000:9d:00.1 eth$(reboot)': Link down\n", "DOWN"),
            // iperf3
            new Case("iperf3 text error", """
                    Connecting to host 10.0.0.2, port 5201
                    [  5]   0.00-1.00   sec  3.09 MBytes  25.9 Mbits/sec    0    770 KBytes
                    iperf3: error - control socket has closed unexpectedly
                    """, "iperf3 reported an error"),
            new Case("iperf3 text error, no host", """
                    [  5]   0.00-1.00   sec  3.09 MBytes  25.9 Mbits/sec    0    770 KBytes
                    iperf3: error - control socket has closed unexpectedly
                    """, "iperf3 reported an error"),
            new Case("iperf3 no summary", """
                    Connecting to host 10.0.0.2, port 5201
                    [  5]   0.00-1.00   sec  3.09 MBytes  25.9 Mbits/sec    0    770 KBytes
                    [  5]   1.00-2.00   sec  3.09 MBytes  25.9 Mbits/sec    0    770 KBytes
                    """, "no summary"),
            new Case("iperf3 UDP loss", """
                    [ ID] Interval        Transfer    Bitrate         Jitter   Lost/Total Datagrams
                    [  5] 0.00-60.01 sec  12.9 GBytes  1.85 Gbits/sec  0.000 ms  0/9514987 (0%)   sender
                    [  5] 0.00-60.00 sec  11.2 GBytes  1.61 Gbits/sec  0.007 ms  1247650/9514406 (13%)  receiver
                    """, "UDP datagrams lost"),
            new Case("iperf3 retransmits and stall", """
                    Connecting to host 192.168.1.2, port 5201
                    [  4]   0.00-1.00   sec  84.8 KBytes   694 Kbits/sec  200   1.41 KBytes
                    [  4]   1.00-2.00   sec  0.00 Bytes  0.00 bits/sec    1   1.41 KBytes
                    - - - - - - - - - - - - - - - - - - - - - - - - -
                    [  4]   0.00-2.00   sec  84.8 KBytes   347 Kbits/sec  201             sender
                    [  4]   0.00-2.00   sec  80.0 KBytes   327 Kbits/sec                  receiver
                    """, "retransmits"),
            new Case("iperf3 stall", """
                    Connecting to host node2, port 5201
                    [  4]   0.00-1.00   sec  84.8 KBytes   694 Kbits/sec    2   1.41 KBytes
                    [  4]   1.00-2.00   sec  0.00 Bytes  0.00 bits/sec    1   1.41 KBytes
                    """, "moved 0 bits/s"),
            // sockperf
            new Case("sockperf error", "[ 0] IP = 22.0.0.3        PORT =  5001 # TCP\n"
                    + "sockperf: ERROR: connect failed\n", "sockperf reported"),
            new Case("sockperf error, no address", "sockperf: ERROR: connect failed\n", "sockperf reported"),
            new Case("sockperf few observations", """
                    [ 0] IP = 11.4.3.32       PORT =  8302 # UDP
                    sockperf: ====> avg-lat=121.880 (std-dev=0.000)
                    sockperf: Total 1 observations; each percentile contains 0.01 observations
                    """, "observation"),
            new Case("sockperf few observations, no address", """
                    sockperf: ====> avg-lat=121.880 (std-dev=0.000)
                    sockperf: Total 1 observations; each percentile contains 0.01 observations
                    """, "observation"),
            new Case("sockperf percentiles only", "sockperf: ---> percentile 99.000 =    2.236\n", "percentiles only"),
            // fio (text)
            new Case("fio killed", "test: (groupid=0, jobs=1): err= 0: pid=455\nfio: pid=455, got signal=9\n",
                    "killed by signal"),
            new Case("fio error", "test: (groupid=0, jobs=1): err=22: pid=455\n", "err=22"),
            new Case("fio summary only", "Run status group 0 (all jobs):\n  WRITE: bw=2000MiB/s (2097MB/s), "
                    + "2000MiB/s-2000MiB/s (2097MB/s-2097MB/s), io=20.0GiB (21.5GB), run=10240-10240msec\n",
                    "run status summary"),
            new Case("fio nothing", "Run status group 0 (all jobs):\n", "without a job result"),
            // perftest
            new Case("perftest small messages", """
                                        RDMA_Write BW Test
                     Device         : mlx5_0
                    ---------------------------------------------------------------------------------------
                     #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]
                     8          1000           1.70               1.67                 0.219031
                    """, "messages this small"),
            new Case("perftest nothing", "                    RDMA_Write BW Test\n", "without a result table"),
            new Case("perftest failures", """
                     Port number 1 state is Down
                     Couldn't get context for the device
                     Unable to find GID
                     Couldn't connect to 10.0.0.2:18515
                     Failed status 12: wr_id 0 syndrom 0x81
                     Failed to complete run_iter_bw function successfully
                    """, "perftest could not open"),
            // ibstat
            new Case("ibstat initializing", """
                    CA 'mlx5_0'
                    	Port 1:
                    		State: Initializing
                    		Physical state: LinkUp
                    		Base lid: 65535
                    		Link layer: InfiniBand
                    """, "no subnet manager"),
            new Case("ibstat linkup without lid", """
                    CA 'mlx5_7'
                    	Port 1:
                    		State: Down
                    		Physical state: LinkUp
                    		Base lid: 65535
                    		Link layer: InfiniBand
                    """, "no subnet manager"),
            new Case("ibstat down", """
                    CA 'mlx5_1'
                    	Port 1:
                    		State: Down
                    		Physical state: Polling
                    		Base lid: 0
                    """, "DOWN"),
            new Case("ibstat panic", """
                    CA 'mlx5_0'
                    	Port 1:
                    		State: Active
                    		Physical state: LinkUp
                    		Base lid: 5
                    ibpanic: [1400444] main: stat of IB device 'mlx5_8' failed: No such file or directory
                    """, "stopped before"),
            // ibv_devinfo
            new Case("ibv_devinfo init, down and RoCE MTU 1024", """
                    hca_id:	mlx5_0
                    		port:	1
                    			state:			PORT_INIT (2)
                    			link_layer:		InfiniBand
                    hca_id:	mlx5_1
                    		port:	1
                    			state:			PORT_DOWN (1)
                    			link_layer:		InfiniBand
                    hca_id:	mlx5_2
                    		port:	1
                    			state:			PORT_ACTIVE (4)
                    			active_mtu:		1024 (3)
                    			link_layer:		Ethernet
                    """, "active_mtu 1024"),
            // show_gids
            new Case("show_gids empty", "DEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4  \t\tVER\tDEV\n"
                    + "---\t----\t-----\t---\t\t\t\t\t------------  \t---\t---\nn_gids_found=0\n", "no GIDs"),
            new Case("show_gids v2 and none", """
                    DEV	PORT	INDEX	GID					IPv4  		VER	DEV
                    ---	----	-----	---					------------  	---	---
                    mlx5_0	1	3	0000:0000:0000:0000:0000:ffff:0a00:0001	10.0.0.1  	v2	ens1f0
                    mlx5_1	1	0	fe80:0000:0000:0000:0ac0:ebff:fe0a:0002			v1	ens1f1
                    n_gids_found=2
                    """, "has no IPv4 address"),
            // nccl-tests
            new Case("nccl-tests separate jobs", """
                    # nThread 1 nGpus 1 minBytes 8 maxBytes 1048576 step: 2(factor) warmup iters: 5 iters: 20 validation: 1
                    #   Rank  0 Pid   1320 on ip-172-31-20-228 device  0 [0x00] Tesla V100-SXM2-16GB
                    #   Rank  0 Pid   2066 on ip-172-31-22-230 device  0 [0x00] Tesla V100-SXM2-16GB
                    #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                         1048576        262144     float     sum      -1    74.78   14.02   24.54      0    76.17   13.77   24.09      0
                         1048576        262144     float     sum      -1    74.78   14.02   24.54      0    76.17   13.77   24.09      0
                    """, "did not start as one job"),
            new Case("nccl-tests cut short", """
                    #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                         1048576        262144     float     sum      -1    74.78   14.02   24.54      0    76.17   13.77   24.09      0
                         2097152        524288     float     sum      -1    80.
                    """, "truncated"),
            new Case("nccl-tests warn", "host:1:1 [0] NCCL INFO Bootstrap\nhost:1:1 [0] enqueue.cc:1 NCCL WARN "
                    + "Cuda failure 'out of memory'\n", "NCCL WARN"),
            new Case("nccl-tests nothing", "NCCL version 2.18.3+cuda12.2\n", "no result table"));

    @Test
    void everyRecogniserBranchGivesARunnableFix() {
        for (Case c : PASTES) {
            DiagnosisReport r = Diagnoser.standard().diagnose(c.text());
            reached(c.name(), r.diagnoses(), d -> d.cause().contains(c.verdict()) || d.subject().contains(c.verdict()));
            r.diagnoses().forEach(d -> runnable(c.name(), d));
        }
        assertThat(fixes).isGreaterThan(40);
        assertThat(problems).isEmpty();
    }

    /** Every kind of kernel hardware error, with and without the device the line names, and each kind of driver. */
    @Test
    void everyKernelEventGivesARunnableFix() {
        for (KernelEvent.Kind k : KernelEvent.Kind.values()) {
            if (k == KernelEvent.Kind.PCIE_FULL) continue;
            for (String dev : List.of("0000:3b:00.0", "MC0", "", "odd'dev$(x)")) {
                String detail = k == KernelEvent.Kind.PROBE_FAILED ? "mlx5_core error -22" : "x";
                judged(k + " " + dev, new KernelEvent(k, dev, detail, OptionalDouble.of(3), 1, "line"));
            }
        }
        for (String driver : List.of("mlx5_core", "mlx4_core", "mlx5_ib", "nvidia", "nvidia-nvswitch", "bnxt_en",
                "snd_hda_intel")) {
            judged(driver, new KernelEvent(KernelEvent.Kind.PROBE_FAILED, "0000:01:00.0", driver + " error -22",
                    OptionalDouble.empty(), 1, "line"));
        }
        assertThat(problems).isEmpty();
    }

    /** A reader that cannot parse the paste, or fails on it, still tells the user what to run. */
    @Test
    void aReaderThatFailsGivesARunnableFix() {
        for (RuntimeException thrown : List.of(new ToolParseException("iperf3", 2, "x", "no result rows"),
                new IllegalStateException("bug"))) {
            Diagnoser failing = new Diagnoser(List.of(new Throwing(thrown)), DiagnosisCatalog.standard());
            DiagnosisReport r = failing.diagnose("anything\n");
            reached(thrown.toString(), r.diagnoses(), d -> d.finding().id().equals("diagnose.parse"));
            r.diagnoses().forEach(d -> runnable(thrown.toString(), d));
        }
        assertThat(problems).isEmpty();
    }

    /** The commands name what the evidence names: the device, the host, the size. */
    @Test
    void fixesNameWhatThePasteNames() {
        assertThat(fixOf("[   1.0] mlx5_core 0000:01:00.0: mlx5_5: Port: 1 Link DOWN\n", "DOWN"))
                .startsWith("rdma link show mlx5_5/1\nibv_devinfo -d mlx5_5 | grep -E 'port:|state'\n");
        assertThat(fixOf("[   1.0] mlx5_core 0000:9d:00.1 eth$(reboot)': Link down\n", "DOWN"))
                .startsWith("ip -s link show dev 'eth$(reboot)'\\'''\n");
        assertThat(fixOf("[   1.0] EDAC MC0: 3 CE memory read error on CPU_SrcID#0_Ha#0_Chan#1_DIMM#0\n",
                "corrected memory")).contains("ras-mc-ctl --error-count || edac-util -v");
        assertThat(fixOf("[   1.0] pcieport 0000:00:1c.5: AER: Corrected error received: 0000:00:1c.5\n",
                "corrected PCIe")).startsWith("lspci -vvv -s 0000:00:1c.5 | grep -A8 'Advanced Error Reporting'\n");
        assertThat(fixOf(PASTES.stream().filter(c -> c.name().equals("nccl-tests separate jobs")).findFirst()
                .orElseThrow().text(), "one job")).contains("mpirun -np 2 -H ip-172-31-20-228:1,ip-172-31-22-230:1 ");
        assertThat(fixOf("[ 0] IP = 22.0.0.3        PORT =  5001 # TCP\nsockperf: ERROR: connect failed\n",
                "sockperf")).endsWith("\nsockperf server -i 22.0.0.3 -p 5001 --tcp");
    }

    private String fixOf(String paste, String cause) {
        return Diagnoser.standard().diagnose(paste).diagnoses().stream()
                .filter(d -> d.cause().contains(cause) || d.subject().contains(cause)).findFirst().orElseThrow().fix();
    }

    private void judged(String name, KernelEvent e) {
        List<Diagnosis> ds = KernelEventVerdicts.judge(List.of(e));
        reached(name, ds, d -> true);
        ds.forEach(d -> runnable(name, d));
    }

    private void reached(String name, List<Diagnosis> ds, Predicate<Diagnosis> verdict) {
        if (ds.stream().noneMatch(d -> verdict.test(d) && !d.fix().isEmpty())) {
            problems.add(name + ": no verdict with a fix reached; got " + ds.stream().map(Diagnosis::cause).toList());
        }
    }

    private void runnable(String name, Diagnosis d) {
        if (d.fix().isEmpty()) return;
        fixes++;
        String what = name + " (" + d.finding().id() + " " + d.subject() + ")";
        RunnableFixes.problem(what, d.fix()).ifPresent(problems::add);
        if (d.fix().lines().allMatch(l -> l.startsWith("# "))) problems.add(what + ": only comments:\n" + d.fix());
        problems.addAll(Jargon.in(what, d.fix()));
    }

    /** A recogniser that claims every paste and throws on it. */
    private record Throwing(RuntimeException thrown) implements Recogniser {

        @Override
        public ToolKind tool() {
            return ToolKind.IPERF3_TEXT;
        }

        @Override
        public boolean recognises(TextLines text) {
            return true;
        }

        @Override
        public ToolReading read(TextLines text, DiagnoseTargets targets) {
            throw thrown;
        }
    }
}
