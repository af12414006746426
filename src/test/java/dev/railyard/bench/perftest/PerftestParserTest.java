package dev.railyard.bench.perftest;

import dev.railyard.model.BwRow;
import dev.railyard.model.LatencyRow;
import dev.railyard.model.PerftestFailure;
import dev.railyard.model.PerftestHeader;
import dev.railyard.model.PerftestResult;
import dev.railyard.model.QpAddress;

import dev.railyard.bench.RealSamples;
import dev.railyard.bench.ToolParseException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class PerftestParserTest {

    private static final String DIR = "bench/perftest/";
    private final PerftestParser parser = new PerftestParser();

    private PerftestResult parse(String name) {
        return parser.parse(RealSamples.body(DIR + name));
    }

    @Test
    void gbitsSweepThatDiesWithStatus10KeepsItsRowsAndSaysWhy() {
        PerftestResult r = parse("dranet-ib_write_bw-a-report_gbits-roce-FAILED-status10.txt");
        PerftestHeader h = r.header().orElseThrow();
        assertThat(h.title()).isEqualTo("RDMA_Write BW Test");
        assertThat(h.device()).contains("mlx5_3");
        assertThat(h.connectionType()).contains("RC");
        assertThat(h.linkType()).contains("Ethernet");
        assertThat(h.mtu()).hasValue(4096);
        assertThat(h.gidIndex()).hasValue(3);
        assertThat(h.fields()).containsEntry("CQE Poll Batch", "16").containsEntry("Using DDP", "OFF");
        assertThat(h.local().orElseThrow().gid().orElseThrow().ipv4()).contains("10.0.4.7");
        assertThat(h.remote().orElseThrow().gid().orElseThrow().ipv4()).contains("10.0.4.8");
        assertThat(h.remote().orElseThrow().qpn()).isEqualTo("0x02a3");
        assertThat(h.local().orElseThrow().lid()).isZero();
        assertThat(r.bandwidth()).hasSize(16);
        BwRow first = r.bandwidth().getFirst();
        assertThat(first.bytes()).isEqualTo(2);
        assertThat(first.peak()).isEqualTo(0.050986);
        BwRow last = r.largestBandwidthRow().orElseThrow();
        assertThat(last.bytes()).isEqualTo(65536);
        assertThat(last.unit()).isEqualTo(BwRow.BwUnit.GBIT_PER_SEC);
        assertThat(last.average()).isEqualTo(381.41);
        assertThat(last.averageGbps()).isEqualTo(381.41);
        assertThat(last.msgRateMpps()).hasValue(0.727473);
        assertThat(r.failures()).extracting(PerftestFailure::kind).containsExactly(
                PerftestFailure.Kind.COMPLETION_ERROR, PerftestFailure.Kind.COMPLETION_ERROR,
                PerftestFailure.Kind.RUN_FAILED);
        assertThat(r.failures().get(1).detail()).isEqualTo("status 10 (IBV_WC_REM_ACCESS_ERR), syndrome 0x88");
        assertThat(r.failures().get(1).lineNumber()).isEqualTo(44);
        assertThat(r.failed()).isTrue();
    }

    @Test
    void cudaDmabufPreambleIsSkippedAndTheSweepReads() {
        PerftestResult r = parse("dranet-ib_write_bw-cuda-dmabuf-report_gbits-h200.txt");
        assertThat(r.failed()).isFalse();
        assertThat(r.bandwidth()).hasSize(23);
        assertThat(r.largestBandwidthRow().orElseThrow().bytes()).isEqualTo(8_388_608);
        assertThat(r.largestBandwidthRow().orElseThrow().average()).isEqualTo(140.40);
        assertThat(r.bestBandwidthRow().orElseThrow().bytes()).isEqualTo(131_072);
        assertThat(r.bestBandwidthRow().orElseThrow().peak()).isEqualTo(140.96);
        assertThat(r.header().orElseThrow().gidIndex()).hasValue(3);
    }

    @Test
    void bidirectionalHeaderWithTabsAndAWarning() {
        PerftestResult r = parse("issue-ngc_multinode_perf-108-out_json-bidirectional.txt");
        PerftestHeader h = r.header().orElseThrow();
        assertThat(h.bidirectional()).isTrue();
        assertThat(h.device()).contains("mlx5_3");
        assertThat(h.qps()).hasValue(2);
        assertThat(h.transport()).contains("IB");
        assertThat(h.mtu()).hasValue(4096); // the excerpt is cut inside "4096[B]"
        assertThat(r.warnings()).containsExactly("WARNING: BW peak won't be measured in this run.");
        assertThat(r.bandwidth()).isEmpty();
        assertThat(r.failed()).isFalse();
    }

    @Test
    void libibverbsWarningsAndATruncatedAddressLine() {
        PerftestResult r = parse("issue-perftest-262-server-output-libibverbs-warnings-roce.txt");
        assertThat(r.warnings()).hasSize(2).allMatch(w -> w.startsWith("libibverbs: Warning: couldn't load driver"));
        PerftestHeader h = r.header().orElseThrow();
        assertThat(h.device()).contains("rocep4s0f0");
        assertThat(h.gidIndex()).hasValue(1);
        assertThat(h.local().orElseThrow().lid()).isEqualTo(1);
        assertThat(h.local().orElseThrow().psn()).isEqualTo("0xfdc71d");
        // The thread's title quotes the client's error; that is the only failure text in the excerpt.
        assertThat(r.failures()).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(PerftestFailure.Kind.COMPLETION_ERROR);
            assertThat(f.line()).contains("is failing with");
        });
    }

    @Test
    void portDownAndNoContextFromAQuotedIssue() {
        PerftestResult r = parse("issue-perftest-43-port-state-down-couldnt-get-context.txt");
        assertThat(r.failures()).extracting(PerftestFailure::kind)
                .containsExactly(PerftestFailure.Kind.PORT_DOWN, PerftestFailure.Kind.NO_CONTEXT);
        assertThat(r.failures().getFirst().detail()).isEqualTo("port 1");
        assertThat(r.failures().getFirst().fix()).contains("--ib-port");
        assertThat(r.headers()).isEmpty();
    }

    @Test
    void infinibandGidPrintedInDecimalPerByte() {
        PerftestResult r = parse("issue-perftest-pr214-ib_write_bw-IB-GID-decimal-lids.txt");
        PerftestHeader h = r.header().orElseThrow();
        assertThat(h.linkType()).contains("IB");
        assertThat(h.device()).contains("ibp5");
        QpAddress local = h.local().orElseThrow();
        assertThat(local.lid()).isEqualTo(0x1907);
        assertThat(local.gid().orElseThrow().hex()).isEqualTo("fe80:0000:0000:0000:946d:ae03:0032:0778");
        assertThat(local.gid().orElseThrow().ipv4()).isEmpty();
        assertThat(h.remote().orElseThrow().lid()).isEqualTo(0x1922);
        assertThat(h.remote().orElseThrow().gid().orElseThrow().hex()).endsWith("0032:18e8");
    }

    @Test
    void connectFailureNamesTheServer() {
        PerftestResult r = parse("issue-perftest-pr228-couldnt-connect-unable-to-init-socket.txt");
        assertThat(r.failures()).extracting(PerftestFailure::kind)
                .containsExactly(PerftestFailure.Kind.CONNECT_FAILED, PerftestFailure.Kind.CONNECT_FAILED);
        assertThat(r.failures().getFirst().detail()).isEqualTo("192.168.125.211:18515");
    }

    @Test
    void interleavedServerAndClientLogsInMbPerSec() {
        PerftestResult r = parse("superbench-ib_loopback_8M_size.log.txt");
        assertThat(r.headers()).hasSize(2).allSatisfy(h -> assertThat(h.device()).contains("ib0"));
        assertThat(r.bandwidth()).hasSize(2).allSatisfy(row -> {
            assertThat(row.bytes()).isEqualTo(8_388_608);
            assertThat(row.average()).isEqualTo(24056.72);
            assertThat(row.unit()).isEqualTo(BwRow.BwUnit.MIB_PER_SEC);
        });
        // 24056.72 MiB/s = 24056.72 * 2^20 * 8 bits = 201.80 Gb/s
        assertThat(r.bandwidth().getFirst().averageGbps()).isCloseTo(201.80, within(0.01));

        PerftestResult all = parse("superbench-ib_loopback_all_sizes.log.txt");
        assertThat(all.bandwidth()).hasSize(24);
        assertThat(all.bandwidth().stream().mapToLong(BwRow::bytes).distinct().count()).isEqualTo(23);
        assertThat(all.largestBandwidthRow().orElseThrow().average()).isEqualTo(23240.68);
        assertThat(all.bandwidth().get(11).peak()).isEqualTo(10034.02);
        assertThat(all.headers().getLast().addresses()).hasSize(4);
    }

    @Test
    void seedTables() {
        PerftestResult bw0 = parse("seed-000-ib_write_bw-mlx4-40g.txt");
        assertThat(bw0.bandwidth()).singleElement().satisfies(row -> {
            assertThat(row.bytes()).isEqualTo(65536);
            assertThat(row.peak()).isEqualTo(4555.12);
            assertThat(row.average()).isEqualTo(4554.89);
        });
        PerftestResult lat0 = parse("seed-000-ib_write_lat-mlx4-40g.txt");
        assertThat(lat0.latency()).singleElement().satisfies(row -> {
            assertThat(row.avgUs()).hasValue(0.88);
            assertThat(row.stdevUs()).hasValue(0.05);
            assertThat(row.headlineUs()).hasValue(0.88);
        });
        PerftestResult one = parse("seed-001-ib_write_bw-and-lat-mlx4-40g.txt");
        assertThat(one.bandwidth()).singleElement().satisfies(row -> {
            assertThat(row.average()).isEqualTo(4554.47);
            assertThat(row.msgRateMpps()).isEmpty();
        });
        assertThat(one.latency()).singleElement().satisfies(row -> {
            assertThat(row.minUs()).hasValue(0.81);
            assertThat(row.typicalUs()).hasValue(0.85);
            assertThat(row.avgUs()).hasValue(0.93);
            assertThat(row.headlineUs()).hasValue(0.85);
        });
    }

    @Test
    void cpuFrequencyWarningInsideALatencyTableIsAWarningNotARow() {
        // Layout of perftest 4.x ib_write_lat; the warning line is the one the homelab write-up quotes.
        String out = """
                 #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]
                Conflicting CPU frequency values detected: 1200.000000 != 3600.000000
                 2       1000          0.81           5.70         0.85                0.93             0.10            5.05                    5.70
                """;
        PerftestResult r = parser.parse(out);
        assertThat(r.warnings()).containsExactly("Conflicting CPU frequency values detected: 1200.000000 != 3600.000000");
        LatencyRow row = r.latency().getFirst();
        assertThat(row.p99Us()).hasValue(5.05);
        assertThat(row.p999Us()).hasValue(5.70);
        assertThat(row.maxUs()).hasValue(5.70);
    }

    @Test
    void seedTroubleshootingMessagesAreTypedFailures() {
        PerftestResult r = parser.parse("No RDMA devices found\nUnable to find GID\nIB device mlx4_9 not found\n");
        assertThat(r.failures()).extracting(PerftestFailure::kind).containsExactly(
                PerftestFailure.Kind.NO_DEVICES, PerftestFailure.Kind.GID_NOT_FOUND,
                PerftestFailure.Kind.DEVICE_NOT_FOUND);
        assertThat(r.failures().getFirst().fix()).contains("modprobe -a mlx4_ib mlx5_ib");
        assertThat(r.failures().get(1).fix()).contains("--gid-index");
    }

    @Test
    void aCutTableRowNamesItsLine() {
        String out = " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
                + " 65536      5000           4555.12\n";
        assertThatThrownBy(() -> parser.parse(out)).isInstanceOfSatisfying(ToolParseException.class, e -> {
            assertThat(e.tool()).isEqualTo("perftest");
            assertThat(e.lineNumber()).isEqualTo(2);
            assertThat(e.line()).contains("4555.12");
            assertThat(e.reason()).isEqualTo("expected 5 columns, found 3");
        });
    }
}
