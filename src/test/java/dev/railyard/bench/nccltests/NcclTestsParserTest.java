package dev.railyard.bench.nccltests;

import dev.railyard.model.NcclNet;
import dev.railyard.model.NcclRankDevice;
import dev.railyard.model.NcclTestsResult;
import dev.railyard.model.NcclTestsRow;
import dev.railyard.model.NcclTestsRun;

import dev.railyard.bench.RealSamples;
import dev.railyard.bench.ToolParseException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NcclTestsParserTest {

    private final NcclTestsParser parser = new NcclTestsParser();

    private NcclTestsResult parse(String name) {
        return parser.parse(RealSamples.body("bench/nccltests/" + name));
    }

    @Test
    void slurmPrefixedLogWithTwoTables() {
        NcclTestsResult r = parse("awsome-dt-allreduce-2x-p4de-and-2x-p5-srun-prefixed.txt");
        assertThat(r.runs()).hasSize(2);
        NcclTestsRun p4de = r.runs().getFirst();
        assertThat(p4de.rows()).hasSize(29);
        assertThat(p4de.largest().orElseThrow().sizeBytes()).isEqualTo(2_147_483_648L);
        assertThat(p4de.largest().orElseThrow().outOfPlace().busbwGBps()).isEqualTo(78.33);
        assertThat(p4de.rows().getFirst().root()).isEqualTo("-1");
        assertThat(p4de.rows().getFirst().redop()).isEqualTo("sum");
        NcclTestsRun p5 = r.runs().get(1);
        assertThat(p5.rows()).hasSize(32);
        NcclTestsRow big = p5.largest().orElseThrow();
        assertThat(big.sizeBytes()).isEqualTo(17_179_869_184L);
        assertThat(big.outOfPlace().busbwGBps()).isEqualTo(487.09);
        assertThat(big.inPlace().busbwGBps()).isEqualTo(487.26);
        assertThat(big.outOfPlace().wrong()).hasValue(0);
        assertThat(p5.totalWrong()).isZero();
    }

    @Test
    void openMpiTagOutputPrefix() {
        NcclTestsResult r = parse("awsome-dt-allreduce-2x-p5-mpirun-tag-output-prefixed.txt");
        NcclTestsRun run = r.runs().getFirst();
        assertThat(run.rows()).hasSize(7);
        assertThat(run.largest().orElseThrow().outOfPlace().busbwGBps()).isEqualTo(437.79);
        assertThat(run.avgBusBandwidth()).hasValue(52.9753);
        assertThat(run.outOfBoundsValues()).hasValue(0);
        assertThat(run.outOfBoundsOk()).contains(true);
    }

    @Test
    void threeJobsInOneReadme() {
        NcclTestsResult r = parse("coreweave-readme-allreduce-gb200-nvl72-1-2-20-racks.txt");
        assertThat(r.runs()).hasSize(3);
        assertThat(r.runs()).extracting(run -> run.devices().getFirst().rank()).containsExactly(71, 143, 1439);
        assertThat(r.runs().get(0).largest().orElseThrow().outOfPlace().busbwGBps()).isEqualTo(834.57);
        assertThat(r.runs().get(0).avgBusBandwidth()).hasValue(745.53);
        NcclTestsRun twenty = r.runs().get(2);
        assertThat(twenty.devices().getFirst().name()).isEqualTo("NVIDIA GB200");
        assertThat(twenty.devices().getFirst().host()).isEqualTo("slurm-gb200-218-073");
        assertThat(twenty.largest().orElseThrow().outOfPlace().busbwGBps()).isEqualTo(405.74);
        assertThat(twenty.avgBusBandwidth()).hasValue(297.808);
    }

    @Test
    void sharpRunHeader() {
        NcclTestsRun run = parse("coreweave-readme-allreduce-h100-64gpu-sharp.txt").runs().getFirst();
        assertThat(run.nThread()).hasValue(1);
        assertThat(run.nGpus()).hasValue(1);
        assertThat(run.rows()).hasSize(5);
        assertThat(run.largest().orElseThrow().outOfPlace().busbwGBps()).isEqualTo(386.56);
        assertThat(run.avgBusBandwidth()).hasValue(373.187);
    }

    @Test
    void largestSizeIsNotTheBestSize() {
        NcclTestsResult r = parse("dranet-all_gather_perf-16xB200-2nodes-gke.txt");
        assertThat(r.ncclVersion()).contains("2.26.6+cuda12.8");
        NcclTestsRun run = r.runs().getFirst();
        assertThat(run.devices()).hasSize(16);
        NcclRankDevice last = run.devices().getLast();
        assertThat(last.rank()).isEqualTo(15);
        assertThat(last.group()).hasValue(0);
        assertThat(last.pid()).isEqualTo(22763);
        assertThat(last.host()).isEqualTo("nccl-gib-test-1");
        assertThat(last.device()).isEqualTo(7);
        assertThat(last.busId()).isEqualTo("0000:cc:00");
        assertThat(last.name()).isEqualTo("NVIDIA B200");
        assertThat(run.rows()).hasSize(24);
        assertThat(run.largest().orElseThrow().outOfPlace().busbwGBps()).isEqualTo(260.03);
        assertThat(run.rows().get(22).outOfPlace().busbwGBps()).isEqualTo(261.57);
        assertThat(run.largest().orElseThrow().redop()).isEqualTo("none");

        NcclTestsResult two = parse("dranet-all_gather_perf-2xH200-gke-gib.txt");
        assertThat(two.ncclVersion()).contains("2.25.1+cuda12.8");
        assertThat(two.runs().getFirst().devices()).extracting(NcclRankDevice::host)
                .containsExactly("nccl-gib-test-0", "nccl-gib-test-1");
        assertThat(two.runs().getFirst().largest().orElseThrow().outOfPlace().busbwGBps()).isEqualTo(32.20);
        assertThat(two.runs().getFirst().avgBusBandwidth()).hasValue(15.0709);
    }

    @Test
    void inPlaceWrongIsNotApplicable() {
        NcclTestsRun run = parse("issue-nccl-tests-287-alltoall-inplace-NA-wrong-5090.txt").runs().getFirst();
        NcclTestsRow row = run.rows().getFirst();
        assertThat(row.sizeBytes()).isEqualTo(33_554_432);
        assertThat(row.outOfPlace().wrong()).hasValue(0);
        assertThat(row.inPlace().wrong()).isEmpty();
        assertThat(row.inPlace().algbwGBps()).isEqualTo(43046.10);
        assertThat(run.avgBusBandwidth()).hasValue(0);
        assertThat(run.devices().getFirst().name()).isEqualTo("NVIDIA GeForce RTX 5090");
    }

    @ParameterizedTest
    @CsvSource({
            "superbench-nccl_allgather.log.txt, '', '', 223.39, 230.07, 58.2651",
            "superbench-nccl_allreduce.log.txt, sum, '', 235.26, 235.03, 68.4048",
            "superbench-nccl_alltoall.log.txt, '', '', 224.31, 226.16, 58.6481",
            "superbench-nccl_broadcast.log.txt, '', 0, 232.81, 234.70, 64.8653",
            "superbench-nccl_reduce.log.txt, sum, 0, 228.38, 228.83, 65.018",
            "superbench-nccl_reducescatter.log.txt, sum, '', 231.52, 231.25, 60.168"})
    void oldLayoutWithoutRootOrWrongColumns(String file, String redop, String root, double oop, double ip,
                                            double avg) {
        NcclTestsResult r = parse(file);
        NcclTestsRun run = r.runs().getFirst();
        assertThat(run.nGpus()).hasValue(8);
        assertThat(run.devices()).hasSize(8).allSatisfy(d -> assertThat(d.group()).isEmpty());
        assertThat(run.devices().getFirst().name()).isEqualTo("A100-SXM4-40GB");
        NcclTestsRow big = run.largest().orElseThrow();
        assertThat(big.sizeBytes()).isEqualTo(8_589_934_592L);
        assertThat(big.redop()).isEqualTo(redop);
        assertThat(big.root()).isEqualTo(root);
        assertThat(big.outOfPlace().busbwGBps()).isEqualTo(oop);
        assertThat(big.inPlace().busbwGBps()).isEqualTo(ip);
        assertThat(big.outOfPlace().wrong()).isEmpty();
        assertThat(run.avgBusBandwidth()).hasValue(avg);
    }

    @Test
    void socketFallbackAfterNoIbDevice() {
        NcclTestsResult r = parse("issue-nccl-1267-NET-IB-no-device-Using-network-Socket-gcp.txt");
        assertThat(r.net().ibNoDevice()).isTrue();
        assertThat(r.net().socketInterfaces()).containsExactly("ens7");
        assertThat(r.net().transport()).contains(NcclNet.Transport.SOCKET);
        assertThat(r.ncclVersion()).contains("2.19.3+cuda12.3");
        assertThat(r.runs()).isEmpty();
    }

    @Test
    void socketFallbackWithoutLibibverbs() {
        NcclTestsResult r = parse("issue-nccl-tests-131-NET-Socket-eth0-virbr0-2gpu-PHB.txt");
        assertThat(r.net().ibverbsMissing()).isTrue();
        assertThat(r.net().socketInterfaces()).containsExactly("eth0", "virbr0");
        assertThat(r.net().transport()).contains(NcclNet.Transport.SOCKET);
        assertThat(r.runs().getFirst().devices()).extracting(NcclRankDevice::name)
                .containsExactly("NVIDIA GeForce GTX 1050 Ti", "NVIDIA GeForce GTX 950");
        assertThat(r.runs().getFirst().devices().getFirst().host()).isEqualTo("Meowth");

        NcclTestsResult r291 = parse("issue-nccl-tests-291-NET-Socket-fallback-no-libibverbs-5090.txt");
        assertThat(r291.net().ibverbsMissing()).isTrue();
        assertThat(r291.net().socketInterfaces()).containsExactly("ens49f1np1");
        assertThat(r291.ncclVersion()).contains("2.25.1+cuda12.4");
        assertThat(r291.runs().getFirst().devices().getFirst().busId()).isEqualTo("0000:16:00");
    }

    @Test
    void socketChannelsAndWarnings() {
        NcclTestsResult r = parse("issue-nccl-952-via-NET-Socket-channels-and-WARN-connection-closed.txt");
        assertThat(r.net().socketChannels()).isTrue();
        assertThat(r.net().transport()).contains(NcclNet.Transport.SOCKET);
        assertThat(r.warnings()).hasSize(3);
        assertThat(r.warnings().getLast().text()).startsWith("socketProgress: Connection closed by remote peer");
    }

    @Test
    void ibAndRoceNics() {
        NcclTestsResult rccl = parse("issue-rccl-419-NET-IB-Using-4-hcas-IB.txt");
        assertThat(rccl.net().ibNics()).extracting(NcclNet.IbNic::device)
                .containsExactly("mlx5_3", "mlx5_2", "mlx5_1", "mlx5_0");
        assertThat(rccl.net().transport()).contains(NcclNet.Transport.IB);

        NcclTestsResult bond = parse("ml-engineering-nccl-net-ib-with-roce-bond-line.txt");
        assertThat(bond.net().ibNics()).hasSize(9);
        assertThat(bond.net().ibNics().getLast())
                .isEqualTo(new NcclNet.IbNic(8, "mlx5_bond_0", 1, "RoCE"));
        assertThat(bond.net().transport()).contains(NcclNet.Transport.IB);

        NcclTestsResult azure = parse("ml-engineering-nccl-net-ib-azure-completion-error12.txt");
        assertThat(azure.net().ibNics()).extracting(NcclNet.IbNic::linkLayer).containsExactly("IB", "RoCE");
        assertThat(azure.warnings()).singleElement()
                .satisfies(w -> assertThat(w.text()).contains("with error 12, opcode 0"));

        NcclTestsResult roce = parser.parse("h:1:2 [0] NCCL INFO NET/IB : Using [0]mlx4_0:2/RoCE ; OOB ens6d1:10.0.0.1<0>\n");
        assertThat(roce.net().transport()).contains(NcclNet.Transport.ROCE);
    }

    @Test
    void pluginsAndPlainSocketLines() {
        NcclTestsResult fs = parse("ml-engineering-nccl-net-fastsocket-and-ib-lines.txt");
        assertThat(fs.net().plugins()).containsExactly("FastSocket");
        assertThat(fs.net().ibNics()).hasSize(8);
        assertThat(parse("ml-engineering-nccl-net-socket-enp67s0.txt").net().socketInterfaces()).containsExactly("enp67s0");
        assertThat(parse("ml-engineering-nccl-net-socket-fallback-line.txt").net().transport())
                .contains(NcclNet.Transport.SOCKET);
        NcclTestsResult warn = parse("issue-nccl-426-WARN-completion-error12-vendor-err-129.txt");
        // The thread title quotes the WARN line too (opcode 0); the comment's line has opcode 1.
        assertThat(warn.warnings()).extracting(NcclTestsResult.Warn::text).containsExactly(
                "NET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129",
                "NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129");
        NcclTestsResult ofi = parser.parse("h:1:1 [0] NCCL INFO NET/OFI Selected Provider is efa\n");
        assertThat(ofi.net().transport()).contains(NcclNet.Transport.OFI);
    }

    @Test
    void aCutRowNamesItsLine() {
        String out = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                + "0:           8             2     float     sum      -1    164.3    0.00\n";
        assertThatThrownBy(() -> parser.parse(out)).isInstanceOfSatisfying(ToolParseException.class, e -> {
            assertThat(e.tool()).isEqualTo("nccl-tests");
            assertThat(e.lineNumber()).isEqualTo(2);
            assertThat(e.reason()).isEqualTo("expected 13 columns, found 7");
        });
    }
}
