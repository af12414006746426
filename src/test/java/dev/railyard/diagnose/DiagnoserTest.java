package dev.railyard.diagnose;

import dev.railyard.model.RailyardException;
import dev.railyard.model.Severity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DiagnoserTest {

    private final Diagnoser diagnoser = Diagnoser.standard();

    /** Real samples: the tool each is recognised as, the worst verdict, and a word of the first verdict's cause. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "ib-tools/gpud-ibstat-h100-some-down-polling-roce.txt | IBSTAT | WARN | 1: DOWN",
            "ib-tools/gpud-ibstat-h100-all-active-0.txt | IBSTAT | PASS | port checks passed",
            "ib-tools/gpud-ibstat-a100-hdr-ib-ibpanic-exit255.txt | IBSTAT | FAIL | ibpanic",
            "ib-tools/issue-network-operator-249-ibstat-State-Down-PhysLinkUp-VF.txt | IBSTAT | FAIL | no subnet manager",
            "ib-tools/issue-deepep-60-ibv_devinfo-PORT_DOWN-cx7.txt | IBV_DEVINFO | WARN | 1: DOWN",
            "ib-tools/issue-k8s-rdma-sriov-dev-plugin-30-show_gids-empty-ibv_devices.txt | SHOW_GIDS | FAIL | no GIDs",
            "ib-tools/issue-spectrumscale-pr4-show_gids-cx6-roce-v1-v2.txt | SHOW_GIDS | PASS | index 5",
            "ib-tools/issue-gpud-pr1209-journalctl-k-mlx5-port-link-INIT-ACTIVE.txt | KERNEL_LOG | PASS | no GPU/NIC/PCIe/memory errors",
            "kernel-log/xid-dmesg-gpud-xid48-63-94-iso.txt | KERNEL_LOG | FAIL | Xid 48",
            "kernel-log/xid-dmesg-gpud-xid119-gsp-timeout.txt | KERNEL_LOG | FAIL | Xid 119",
            "iperf3/cloudpilot-iperf3-3.6-json-ERROR-control-socket-closed.txt | IPERF3_JSON | FAIL | control socket",
            "iperf3/cloudpilot-iperf3-3.9-json-EMPTY-intervals-no-error.txt | IPERF3_JSON | FAIL | did not complete",
            "iperf3/cloudpilot-iperf3-3.9-json-tcp-10s-omit3.txt | IPERF3_JSON | INFO | 0.4645 Gb/s",
            "iperf3/cloudpilot-iperf3-text-output-tcp-omit.txt | IPERF3_TEXT | INFO | 46 retransmits",
            "iperf3/seed-001-iperf3-text-summary.txt | IPERF3_TEXT | INFO | 27.40 Gb/s",
            "sockperf/seed-001-sockperf-pingpong-tcp.txt | SOCKPERF | INFO | 21.928",
            "sockperf/virtualclient-sockperf-client-full-rtt-ansi-fulllog.txt | SOCKPERF | INFO | 101.926",
            "fio/superbench-disk_performance-fio-3.16.json.txt | FIO_JSON | INFO | random I/O (randrw)",
    })
    void realSamples(String resource, ToolKind tool, Severity worst, String causeWord) {
        DiagnosisReport r = diagnoser.diagnose(RealSample.text(resource));
        assertThat(r.tool()).isEqualTo(tool);
        assertThat(r.worst()).isEqualTo(worst);
        assertThat(r.diagnoses().getFirst().cause()).contains(causeWord);
    }

    /** The example write-ups' troubleshooting rows, each fed the line the write-up quotes. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Port number 1 state is Down | perftest.port-down | FAIL | --ib-port",
            "Unable to find GID | perftest.no-gid | FAIL | --gid-index",
            "cma event RDMA_CM_EVENT_REJECTED, error 8 | rping.rejected | FAIL | start the server first",
            "No RDMA devices found | rdma.no-devices | FAIL | modprobe -a mlx4_ib mlx5_ib",
            "Conflicting CPU frequency values detected: 1200.000000 != 3600.000000 | perftest.cpu-frequency | WARN | scaling_governor",
            "NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0> | nccl.socket-fallback | FAIL | NCCL_IB_HCA",
            "# NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129 | rdma.retry-exceeded | FAIL | GID index",
            "                State: Initializing | ib.no-subnet-manager | FAIL | opensm",
    })
    void seedTroubleshootingRows(String line, String ruleId, Severity severity, String fixWord) {
        var found = DiagnosisCatalog.standard().match(dev.railyard.bench.TextLines.of(line));
        assertThat(found).singleElement().satisfies(d -> {
            assertThat(d.finding().id()).isEqualTo(ruleId);
            assertThat(d.severity()).isEqualTo(severity);
            assertThat(d.fix()).contains(fixWord);
            assertThat(d.lineNumber()).isEqualTo(1);
        });
    }


    @Test
    void kernelLogXidsTakeTheirActionFromTheOneCatalogThatCheckUses() {
        DiagnosisReport r = diagnoser.diagnose(RealSample.text("kernel-log/xid-dmesg-gpud-xid48-63-94-iso.txt"));
        Diagnosis x48 = r.diagnoses().stream().filter(d -> d.cause().startsWith("Xid 48")).findFirst().orElseThrow();
        assertThat(x48.finding().id()).isEqualTo("gpu.xid");
        assertThat(x48.cause()).startsWith("Xid 48: Double Bit ECC Error (DBE)");
        assertThat(x48.fix()).isEqualTo(dev.railyard.check.XidCatalog.judge(48, "")
                        .remediation(dev.railyard.check.XidCatalog.busId(x48.subject().substring("GPU ".length())), "$(hostname -s)"))
                .contains("nvidia-smi -r -i 0000:", "replace the GPU if the DBE comes back").doesNotContain("<", "{");
        dev.railyard.check.RunnableFixes.assertRunnable("Xid 48", x48.fix());
    }

    @Test
    void unrecognisedInputSaysWhatIsRecognised() {
        assertThatThrownBy(() -> diagnoser.diagnose("hello world\n"))
                .isInstanceOfSatisfying(RailyardException.Usage.class, e -> {
                    assertThat(e.exitCode()).isEqualTo(2);
                    assertThat(e.hint()).contains("ibstat", "show_gids", "iperf3 --json", "sockperf", "nccl-tests",
                            "perftest", "fio");
                });
    }

    @Test
    void perftestFailuresAreJudgedByTheParserWithTheirFixes() {
        String text = """
                 Port number 1 state is Down
                 Couldn't get context for the device
                """;
        DiagnosisReport r = diagnoser.diagnose(text);
        assertThat(r.tool()).isEqualTo(ToolKind.PERFTEST);
        assertThat(r.failed()).isTrue();
        // the parser's verdicts on lines 1 and 2 replace the catalog's rule on line 1
        assertThat(r.diagnoses()).extracting(Diagnosis::lineNumber).containsExactly(1, 2);
        assertThat(r.diagnoses().getFirst().finding().id()).isEqualTo("bench.rdma.bw");
        assertThat(r.diagnoses().getFirst().fix()).contains("--ib-port");
        assertThat(r.diagnoses().get(1).cause()).startsWith("perftest could not open the device");
    }

    /**
     * horovod 685: ranks 0 and 1 of four, both on host ml3, NET/Socket and no channel over the network. Nothing shows
     * a second host, so the fallback is a WARN that says so, not a FAIL; one line of one GPU (the ml-engineering
     * sample) shows nothing of the job and stays a FAIL.
     */
    @Test
    void socketOnSeveralGpusOfTheOnlyHostShownIsAWarnThatSaysSo() {
        String text = PasteCorpusTest.load("diagnose/corpus/dev4/nccl-log-single-host-net-ib-zero-devices-horovod685.txt").text();
        DiagnosisReport r = diagnoser.diagnose(text);
        assertThat(r.worst()).isEqualTo(Severity.WARN);
        assertThat(r.diagnoses()).anySatisfy(d -> assertThat(d.cause())
                .startsWith("every NCCL line here is from ml3 and no channel goes over the network")
                .contains("if the job spans hosts, this is its path between them: NCCL used NET/Socket"));
        String oneLine = RealSample.text("bench/nccltests/ml-engineering-nccl-net-socket-enp67s0.txt");
        assertThat(diagnoser.diagnose(oneLine).worst()).isEqualTo(Severity.FAIL);
        String overTheNetwork = text + "ml3:32632:32662 [0] NCCL INFO Ring 00 : 3 -> 0 [receive] via NET/Socket/0\n";
        assertThat(diagnoser.diagnose(overTheNetwork).worst()).isEqualTo(Severity.FAIL);
    }

    /**
     * rdma-core 847: the tail of an ibportstate block (no LinkState line, FDR's extended speed) and then ibstat: one
     * section per tool, the 56 Gb/s of both read.
     */
    @Test
    void anIbportstateFragmentBeforeIbstatIsItsOwnSection() {
        String text = PasteCorpusTest.load(
                "diagnose/corpus/holdout4/mixed-ibportstate-fdr-then-ibstat-port1-disabled-rdmacore847.txt").text();
        DiagnosisReport r = diagnoser.diagnose(text);
        assertThat(r.tool()).isEqualTo(ToolKind.MIXED);
        assertThat(r.diagnoses()).extracting(Diagnosis::subject).anyMatch(s -> s.startsWith(ToolKind.IBPORTSTATE.label()))
                .anyMatch(s -> s.startsWith(ToolKind.IBSTAT.label()));
        assertThat(r.parsed().numbers()).anySatisfy(m -> assertThat(m.name()).startsWith("rate of port"))
                .anySatisfy(m -> assertThat(m.value()).isEqualTo(56.25));
    }

    @Test
    void socketFallbackIsOnlyAFailWhereTheFabricWasExpected() {
        String text = RealSample.text("bench/nccltests/ml-engineering-nccl-net-socket-enp67s0.txt");
        assertThat(diagnoser.diagnose(text).failed()).isTrue();
        DiagnoseTargets tcp = new DiagnoseTargets(java.util.Optional.empty(), 0.9, 2.0, java.util.Optional.empty(),
                false, java.util.Optional.empty());
        DiagnosisReport r = diagnoser.diagnose(text, tcp);
        assertThat(r.failed()).isFalse();
        assertThat(r.diagnoses()).extracting(Diagnosis::cause).contains("NCCL used SOCKET");
    }

    @Test
    void anIperf3RunThatFailedBeforeItsFirstIntervalIsStillIperf3s() {
        // iperf3 3.17's longer wording, the client's command line the only place the server is named
        DiagnosisReport r = diagnoser.diagnose("""
                > iperf3 -c iperf.example.net -p 5202

                iperf3: error - unable to connect to server - server may have stopped running or use a different \
                port, firewall issue, etc.: Connection refused
                """);
        assertThat(r.tool()).isEqualTo(ToolKind.IPERF3_TEXT);
        assertThat(r.worst()).isEqualTo(dev.railyard.model.Severity.FAIL);
        Diagnosis d = r.diagnoses().getFirst();
        assertThat(d.cause()).startsWith("iperf3 reported an error: unable to connect to server").endsWith(
                "Connection refused");
        assertThat(d.fix()).contains("on iperf.example.net", "iperf3 -s -p 5202");
        // a Windows client, no port given: iperf3's default
        DiagnosisReport win = diagnoser.diagnose("C:\\>iperf3.exe -d -c 10.60.7.223\r\n"
                + "iperf3: error - unable to connect to server: Connection refused\r\n");
        assertThat(win.tool()).isEqualTo(ToolKind.IPERF3_TEXT);
        assertThat(win.diagnoses().getFirst().fix()).contains("iperf3 -s -p 5201", "ip route get 10.60.7.223");
    }

    @Test
    void anIperf3ErrorOnTheServersSideSendsTheReaderToTheClient() {
        DiagnosisReport r = diagnoser.diagnose("""
                -----------------------------------------------------------
                Server listening on 5004 (test #1)
                -----------------------------------------------------------
                Accepted connection from 10.10.31.118, port 51760
                [  5] local 20.10.20.1 port 5004 connected to 10.10.31.118 port 43847
                iperf3: error - unable to receive control message: Connection reset by peer
                """);
        assertThat(r.tool()).isEqualTo(ToolKind.IPERF3_TEXT);
        assertThat(r.worst()).isEqualTo(dev.railyard.model.Severity.FAIL);
        assertThat(r.diagnoses().getFirst().fix()).contains("server's output", "ip -s link")
                .doesNotContain("start the server first");
        // both sides in one paste: the error came after the client's command, so it is the client's
        DiagnosisReport both = diagnoser.diagnose("""
                C:\\>iperf3 -d -s -B 10.60.7.222
                -----------------------------------------------------------
                Server listening on 5201
                -----------------------------------------------------------

                C:\\>iperf3 -d -c 10.60.7.223 -p 5201
                iperf3: error - unable to connect to server: Connection refused
                """);
        assertThat(both.diagnoses().getFirst().fix()).contains("start the server first, on 10.60.7.223",
                "iperf3 -s -p 5201");
    }

    @Test
    void proseThatOnlyNamesIperf3IsNotIperf3Output() {
        assertThatThrownBy(() -> diagnoser.diagnose("we ran iperf3 and saw iperf3: error in the log, twice\n"))
                .isInstanceOf(RailyardException.Usage.class);
    }
}
