package dev.railyard.diagnose;

import dev.railyard.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `railyard diagnose -` end to end (Main's command line, stdin, captured writers) on every real perftest and
 * nccl-tests sample, the homelab write-up's RDMA troubleshooting rows, and garbled samples.
 */
class DiagnoseSamplesTest {

    record Run(int code, String out, String err) {}

    static Run run(String stdin, String... args) {
        InputStream saved = System.in;
        System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        try {
            CommandLine cl = Main.commandLine();
            StringWriter out = new StringWriter(), err = new StringWriter();
            cl.setOut(new PrintWriter(out));
            cl.setErr(new PrintWriter(err));
            String[] argv = Stream.concat(Stream.of("diagnose", "-"), Arrays.stream(args)).toArray(String[]::new);
            return new Run(cl.execute(argv), out.toString(), err.toString());
        } finally {
            System.setIn(saved);
        }
    }

    /** resource (under bench/) | extra arguments | exit code | what the output must say (';' separates several). */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "perftest/seed-000-ib_write_bw-mlx4-40g.txt | --rate 40 | 0 | PASS    bench.rdma.bw;4554.89 MB/sec = 38.2 Gb/s at 65536 B = 95.5% of 40 Gb/s;evidence, line 3: 65536",
            "perftest/seed-000-ib_write_bw-mlx4-40g.txt | - | 0 | UNKNOWN bench.rdma.bw;link rate unknown: pass --rate 40;4554.89 MB/sec",
            "perftest/seed-000-ib_write_lat-mlx4-40g.txt | - | 0 | PASS    bench.rdma.lat;0.88 µs at 2 B;expected: <= 2 µs;t_avg at 2 B: 0.88 µs",
            "perftest/seed-000-ib_write_lat-mlx4-40g.txt | --latency-us 0.5 | 1 | FAIL    bench.rdma.lat;expected: <= 0.50 µs;fix: for g in /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor",
            "perftest/seed-001-ib_write_bw-and-lat-mlx4-40g.txt | --rate 40 | 0 | PASS    bench.rdma.bw;PASS    bench.rdma.lat;0.85 µs at 2 B;t_typical at 2 B: 0.85 µs",
            "perftest/dranet-ib_write_bw-a-report_gbits-roce-FAILED-status10.txt | --rate 400 | 1 | PASS    bench.rdma.bw;381.41 Gb/sec;evidence, line 44: Failed status 10: wr_id 0 syndrom 0x88;status 10 (IBV_WC_REM_ACCESS_ERR)",
            "perftest/dranet-ib_write_bw-cuda-dmabuf-report_gbits-h200.txt | --rate 400 | 1 | FAIL    bench.rdma.bw mlx5_3;140.40 Gb/sec = 140.4 Gb/s at 8388608 B = 35.1% of 400 Gb/s;numactl",
            "perftest/issue-ngc_multinode_perf-108-out_json-bidirectional.txt | - | 0 | UNKNOWN bench.rdma.bw mlx5_3;without a result table",
            "perftest/issue-perftest-262-server-output-libibverbs-warnings-roce.txt | - | 1 | FAIL    bench.rdma.bw rocep4s0f0;a work completion came back with an error status;status 10 (remote access)",
            "perftest/issue-perftest-43-port-state-down-couldnt-get-context.txt | - | 1 | the chosen port is Down (port 1);fix: # check the cable;--ib-port;perftest could not open the device",
            "perftest/issue-perftest-pr214-ib_write_bw-IB-GID-decimal-lids.txt | - | 0 | UNKNOWN bench.rdma.bw ibp5;without a result table",
            "perftest/issue-perftest-pr228-couldnt-connect-unable-to-init-socket.txt | - | 1 | (192.168.125.211:18515);(default 18515, open in the firewall)",
            "perftest/superbench-ib_loopback_8M_size.log.txt | --rate 200 | 0 | PASS    bench.rdma.bw ib0;24056.72 MB/sec = 201.8 Gb/s at 8388608 B",
            "perftest/superbench-ib_loopback_all_sizes.log.txt | --rate 200 | 0 | PASS    bench.rdma.bw ib0;23240.68 MB/sec = 195.0 Gb/s at 8388608 B = 97.5% of 200 Gb/s",
            "nccltests/awsome-dt-allreduce-2x-p4de-and-2x-p5-srun-prefixed.txt | --busbw 100 | 1 | FAIL    bench.nccl.busbw nccl-tests run 1;78.33 GB/s busbw at 2147483648 B",
            "nccltests/awsome-dt-allreduce-2x-p5-mpirun-tag-output-prefixed.txt | --busbw 400 | 0 | PASS    bench.nccl.busbw;437.79 GB/s busbw at 2147483648 B",
            "nccltests/coreweave-readme-allreduce-gb200-nvl72-1-2-20-racks.txt | - | 0 | INFO    bench.nccl.busbw nccl-tests run 3;834.57 GB/s busbw at 8589934592 B",
            "nccltests/coreweave-readme-allreduce-h100-64gpu-sharp.txt | --busbw 350 | 0 | PASS    bench.nccl.busbw;386.56 GB/s busbw at 8589934592 B",
            "nccltests/dranet-all_gather_perf-16xB200-2nodes-gke.txt | --busbw 250 | 0 | PASS    bench.nccl.busbw;260.03 GB/s busbw;avg bus bandwidth (sweep): 59.36 GB/s",
            "nccltests/dranet-all_gather_perf-2xH200-gke-gib.txt | --busbw 250 | 1 | FAIL    bench.nccl.busbw;32.20 GB/s busbw at 8589934592 B;NCCL_IB_HCA",
            "nccltests/issue-nccl-1267-NET-IB-no-device-Using-network-Socket-gcp.txt | - | 0 | one host (instance-8g-96c-3): NCCL needs no network;NCCL used NET/Socket over ens7 after \"NET/IB : No device found.\"",
            "nccltests/issue-nccl-426-WARN-completion-error12-vendor-err-129.txt | - | 1 | FAIL    rdma.retry-exceeded;evidence, line 2: # NCCL WARN NET/IB : Got completion with error 12",
            "nccltests/issue-nccl-952-via-NET-Socket-channels-and-WARN-connection-closed.txt | - | 1 | NCCL used NET/Socket after;NCCL WARN socketProgress: Connection closed by remote peer",
            "nccltests/issue-nccl-tests-131-NET-Socket-eth0-virbr0-2gpu-PHB.txt | - | 0 | one host (Meowth);NCCL used NET/Socket over eth0,virbr0 after \"Failed to open libibverbs.so\"",
            "nccltests/issue-nccl-tests-131-NET-Socket-eth0-virbr0-2gpu-PHB.txt | --no-fabric | 0 | INFO    bench.nccl.busbw nccl-tests;NCCL used SOCKET",
            "nccltests/issue-nccl-tests-287-alltoall-inplace-NA-wrong-5090.txt | - | 0 | 0 GB/s busbw at 33554432 B;#wrong: 0 values",
            "nccltests/issue-nccl-tests-291-NET-Socket-fallback-no-libibverbs-5090.txt | - | 0 | one host (node);NCCL used NET/Socket over ens49f1np1 after \"Failed to open libibverbs.so\"",
            "nccltests/issue-rccl-419-NET-IB-Using-4-hcas-IB.txt | - | 0 | NCCL used IB over mlx5_3:1/IB, mlx5_2:1/IB, mlx5_1:1/IB, mlx5_0:1/IB",
            "nccltests/ml-engineering-nccl-net-fastsocket-and-ib-lines.txt | - | 0 | NCCL used IB over mlx5_0:1/IB",
            "nccltests/ml-engineering-nccl-net-ib-azure-completion-error12.txt | - | 1 | NCCL used IB over ibP111p0s0:1/IB, rdmaP1111p0s2:1/RoCE;FAIL    rdma.retry-exceeded",
            "nccltests/ml-engineering-nccl-net-ib-with-roce-bond-line.txt | - | 0 | mlx5_bond_0:1/RoCE",
            "nccltests/ml-engineering-nccl-net-socket-enp67s0.txt | - | 1 | NCCL used NET/Socket over enp67s0",
            "nccltests/ml-engineering-nccl-net-socket-fallback-line.txt | - | 1 | NCCL used NET/Socket over eth0",
            "nccltests/superbench-nccl_allgather.log.txt | --busbw 200 | 0 | PASS    bench.nccl.busbw;223.39 GB/s busbw at 8589934592 B",
            "nccltests/superbench-nccl_allreduce.log.txt | --busbw 240 | 1 | FAIL    bench.nccl.busbw;235.26 GB/s busbw at 8589934592 B",
            "nccltests/superbench-nccl_alltoall.log.txt | - | 0 | INFO    bench.nccl.busbw;224.31 GB/s busbw at 8589934592 B",
            "nccltests/superbench-nccl_broadcast.log.txt | - | 0 | 232.81 GB/s busbw at 8589934592 B",
            "nccltests/superbench-nccl_reduce.log.txt | - | 0 | 228.38 GB/s busbw at 8589934592 B",
            "nccltests/superbench-nccl_reducescatter.log.txt | - | 0 | 231.52 GB/s busbw at 8589934592 B",
    })
    void everyRealSample(String resource, String args, int exit, String says) {
        Run r = run(RealSample.text("bench/" + resource), args == null ? new String[0] : args.split(" "));
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).startsWith(resource.startsWith("perftest") ? "Recognised: perftest"
                : "Recognised: nccl-tests");
        assertThat(r.out()).contains(says.split(";"));
        assertThat(r.code()).isEqualTo(exit);
    }

    @Test
    void everySampleFolderIsInTheTable() throws Exception {
        String table = Arrays.toString(getClass().getDeclaredMethod("everyRealSample", String.class, String.class,
                int.class, String.class).getAnnotation(CsvSource.class).value());
        for (String folder : List.of("bench/perftest", "bench/nccltests")) {
            for (String sample : RealSample.all(folder)) {
                assertThat(table).as(sample).contains(sample.substring("bench/".length()));
            }
        }
    }

    /** The homelab write-up's "Troubleshooting RDMA" table, each row as the text a user would paste, and its fix. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "Port number 1 state is Down | - | 1 | Recognised: perftest;port is Down;--ib-port",
            "Unable to find GID | - | 1 | Recognised: perftest;--gid-index",
            "' #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n 65536      5000           1139.50            1139.20              0.018227' | --rate 40 | 1 | negotiated 10G: replace the QSFP+ cable/DAC",
            "cma event RDMA_CM_EVENT_REJECTED, error 8 | - | 1 | Recognised: rping;start the server first on the other node (rping -s -a",
            "No RDMA devices found | - | 1 | modprobe -a mlx4_ib mlx5_ib",
    })
    void seed000TroubleshootingRows(String pasted, String args, int exit, String says) {
        Run r = run(pasted.replace("\\n", "\n") + "\n", args.equals("-") ? new String[0] : args.split(" "));
        assertThat(r.out()).contains(says.split(";"));
        assertThat(r.code()).isEqualTo(exit);
    }

    @Test
    void jsonCarriesToolFindingsAndParsedNumbers() {
        Run r = run(RealSample.text("bench/perftest/seed-001-ib_write_bw-and-lat-mlx4-40g.txt"), "--rate", "40",
                "--format", "json");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("\"tool\" : \"PERFTEST\"", "\"id\" : \"bench.rdma.bw\"",
                "\"observed\" : \"4554.47 MB/sec = 38.2 Gb/s at 65536 B = 95.5% of 40 Gb/s\"", "\"lineNumber\" : 4",
                "\"parsed\" : {", "\"name\" : \"t_typical at 2 B\"", "\"value\" : 0.85", "\"typicalUs\" : 0.85");
    }

    @Test
    void badTargetsAreUsageErrors() {
        Run r = run("x\n", "--rate", "-40");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--rate cannot be negative, got -40");
        Run zero = run("x\n", "--rate", "0");
        assertThat(zero.code()).isEqualTo(2);
        assertThat(zero.err()).contains("--rate must be a positive number");
    }

    /** Garbled real samples through the whole command: a verdict (0/1) or a usage error (2), never anything else. */
    @Test
    void garbledSamplesExitZeroOneOrTwo() {
        List<String> samples = new ArrayList<>(RealSample.all("bench/perftest"));
        samples.addAll(RealSample.all("bench/nccltests"));
        List<String> bad = new ArrayList<>();
        int cases = 0;
        for (String sample : samples) {
            String text = RealSample.text(sample);
            Random random = new Random(sample.hashCode());
            for (int round = 0; round < 8; round++) {
                String garbled = garble(text, random);
                Run r = run(garbled, "--rate", "40");
                cases++;
                boolean typed = r.code() <= 1 ? r.err().isEmpty() : r.code() == 2 && r.err().startsWith("railyard: ");
                if (!typed) bad.add(sample + " round " + round + ": exit " + r.code() + " " + r.err());
            }
        }
        assertThat(cases).isEqualTo(samples.size() * 8);
        assertThat(bad).isEmpty();
    }

    private static String garble(String text, Random random) {
        StringBuilder sb = new StringBuilder(text.isEmpty() ? " " : text);
        if (random.nextBoolean()) sb.setLength(1 + random.nextInt(sb.length()));
        for (int i = random.nextInt(20); i > 0; i--) {
            int at = random.nextInt(sb.length());
            switch (random.nextInt(3)) {
                case 0 -> sb.setCharAt(at, "#:|-.0123456789 \n\tNA/\u001B".charAt(random.nextInt(22)));
                case 1 -> sb.insert(at, "9".repeat(1 + random.nextInt(25)));
                default -> sb.insert(at, "\n # nThread ");
            }
        }
        return sb.toString();
    }
}
