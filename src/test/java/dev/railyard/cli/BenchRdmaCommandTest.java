package dev.railyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.bench.RealSamples;
import dev.railyard.bench.perftest.PortChoiceTest;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.platform.CommandRunner;
import dev.railyard.report.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** `bench rdma` end to end against fake perftest binaries that print real captured output. */
class BenchRdmaCommandTest {

    @TempDir
    Path dir;

    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final List<String> streamed = new ArrayList<>();

    /** A fake perftest binary: echoes its argv to a file, prints a real sample, exits with {@code rc}. */
    void fake(String binary, String sample, int rc) throws Exception {
        Path text = dir.resolve(binary + ".txt");
        Files.writeString(text, RealSamples.body("bench/perftest/" + sample));
        Path bin = dir.resolve(binary);
        Files.writeString(bin, "#!/bin/sh\necho \"$@\" > " + dir.resolve(binary + ".argv") + "\ncat " + text
                + "\nexit " + rc + "\n");
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    int run(NodeInventory inv, Optional<ClusterSpec> cluster, String... args) {
        return run(() -> inv, cluster, args);
    }

    int run(java.util.function.Supplier<NodeInventory> inv, Optional<ClusterSpec> cluster, String... args) {
        BenchRdmaCommand cmd = new BenchRdmaCommand(inv, sink -> CommandRunner.echoing(line -> {
            streamed.add(line);
            sink.accept(line);
        }), program -> false, file -> cluster.orElseThrow());
        CommandLine cl = new CommandLine(cmd);
        cl.setExecutionExceptionHandler(new ExitCodes.ExceptionHandler());
        cl.setParameterExceptionHandler(new ExitCodes.ParameterHandler());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--perftest-dir", dir.toString()));
        return cl.execute(all.toArray(String[]::new));
    }

    @Test
    void seed000ClientPassesAt95PercentOf40gAndPrintsTheCommand() throws Exception {
        fake("ib_write_bw", "seed-000-ib_write_bw-mlx4-40g.txt", 0);
        int rc = run(PortChoiceTest.seed000(4), Optional.empty(), "client", "10.0.0.2");
        assertThat(rc).as(out + "" + err).isZero();
        assertThat(Files.readString(dir.resolve("ib_write_bw.argv")).strip())
                .isEqualTo("--ib-dev=mlx4_0 --ib-port=2 --gid-index=2 10.0.0.2");
        assertThat(out.toString())
                .contains("Command: " + dir.resolve("ib_write_bw") + " --ib-dev=mlx4_0 --ib-port=2 --gid-index=2 10.0.0.2")
                .contains("Port:    mlx4_0:2 (ens6d1 10.0.0.1), the ACTIVE port on 10.0.0.2's subnet; GID index 2; "
                        + "NUMA node 0 (not pinned: no numactl)")
                .contains("Rate:    40.0 Gb/s")
                .contains("PASS    bench.rdma.bw  mlx4_0:2 ib_write_bw client")
                .contains("= 95.5% of 40 Gb/s");
        assertThat(streamed).anyMatch(l -> l.contains("4554.89"));
    }

    @Test
    void serverPrintsThePeerCommandAndItsTable() throws Exception {
        fake("ib_write_lat", "seed-000-ib_write_lat-mlx4-40g.txt", 0);
        int rc = run(PortChoiceTest.seed000(4), Optional.empty(), "server", "--netdev", "ens6d1",
                "--test", "write_lat", "--size", "2");
        assertThat(rc).as(out + "" + err).isZero();
        assertThat(Files.readString(dir.resolve("ib_write_lat.argv")).strip())
                .isEqualTo("--ib-dev=mlx4_0 --ib-port=2 --gid-index=2 --size=2");
        assertThat(out.toString())
                .contains("Peer:    railyard bench rdma client 10.0.0.1 --test write_lat --size 2")
                .contains("PASS    bench.rdma.lat  mlx4_0:2 ib_write_lat server")
                .contains("observed: 0.88 µs at 2 B");
    }

    @Test
    void aSpecRateOf100gFailsTheSame40gResult() throws Exception {
        fake("ib_write_bw", "seed-000-ib_write_bw-mlx4-40g.txt", 0);
        ClusterSpec.Network rail0 = new ClusterSpec.Network("rail0", ClusterSpec.Role.COMPUTE,
                Optional.of(ClusterSpec.LinkLayer.ETHERNET), Optional.of(100.0), Optional.empty(), Optional.empty(),
                Optional.empty(), Map.of("gpuserver1", new ClusterSpec.Binding("ens6d1",
                Optional.of(new NetInterface.RdmaPortRef("mlx4_0", 2)), Optional.of("10.0.0.1"))));
        ClusterSpec spec = new ClusterSpec("lab", "cluster.yaml", List.of(), Optional.empty(), List.of(rail0),
                ClusterSpec.Expect.defaults());
        Path specFile = Files.writeString(dir.resolve("cluster.yaml"), "# loaded by the test's loader\n");
        int rc = run(PortChoiceTest.seed000(4), Optional.of(spec), "client", "10.0.0.2", "--spec",
                specFile.toString(), "--network", "rail0", "--format", "json");
        assertThat(rc).isEqualTo(1);
        JsonNode report = Json.mapper().readTree(out.toString());
        assertThat(report.path("gidIndex").asInt()).isEqualTo(2);
        assertThat(report.path("linkGbps").asDouble()).isEqualTo(100.0);
        assertThat(report.path("findings").get(0).path("severity").asText()).isEqualTo("FAIL");
        assertThat(report.path("findings").get(0).path("remediation").asText()).contains("negotiated 40G");
        assertThat(err.toString()).contains("4554.89"); // JSON keeps stdout clean: progress goes to stderr
    }

    @Test
    void portDownIsTheTypedFailureWithItsFix() throws Exception {
        fake("ib_write_bw", "issue-perftest-43-port-state-down-couldnt-get-context.txt", 1);
        int rc = run(PortChoiceTest.seed000(4), Optional.empty(), "client", "10.0.0.2");
        assertThat(rc).isEqualTo(1);
        assertThat(out.toString()).contains("FAIL    bench.rdma.bw")
                .contains("the chosen port is Down (port 1)")
                .contains("fix: # check the cable; pass a port that shows PORT_ACTIVE with --ib-port");
    }

    @Test
    void connectFailureIsTheTypedFailure() throws Exception {
        fake("ib_write_bw", "issue-perftest-pr228-couldnt-connect-unable-to-init-socket.txt", 1);
        assertThat(run(PortChoiceTest.seed000(4), Optional.empty(), "client", "10.0.0.2")).isEqualTo(1);
        assertThat(out.toString()).contains("the client could not reach the server's TCP port")
                .contains("start the server side first");
    }

    @Test
    void aMissingPerftestNamesThePackage() {
        int rc = run(PortChoiceTest.seed000(4), Optional.empty(), "client", "10.0.0.2");
        assertThat(rc).isEqualTo(3);
        assertThat(err.toString()).contains("ib_write_bw could not be started").contains("apt install perftest");
    }

    @Test
    void usageErrorsExitTwo() {
        assertThat(run(PortChoiceTest.seed000(4), Optional.empty(), "client")).isEqualTo(2);
        assertThat(err.toString()).contains("the client needs the server's address");
        assertThat(run(PortChoiceTest.seed000(4), Optional.empty(), "server")).isEqualTo(2);
        assertThat(err.toString()).contains("more than one port fits");
        assertThat(run(PortChoiceTest.seed000(4), Optional.empty(), "client", "10.0.0.2", "--test", "bogus"))
                .isEqualTo(2);
        assertThat(run(PortChoiceTest.seed000(4), Optional.empty(), "client", "10.0.0.2", "--network", "rail0"))
                .isEqualTo(2);
    }

    /** A usage error is found before the machine is probed: without an RDMA device it was exit 3, "no RDMA device". */
    @Test
    void badOptionsExitTwoBeforeTheMachineIsProbed() {
        java.util.concurrent.atomic.AtomicInteger probed = new java.util.concurrent.atomic.AtomicInteger();
        java.util.function.Supplier<NodeInventory> machine = () -> {
            probed.incrementAndGet();
            throw new AssertionError("the machine was probed");
        };
        ClusterSpec withoutRail = new dev.railyard.spec.SpecReader().read("cluster.yaml", """
                cluster: c
                nodes:
                  - {name: n1, address: 10.0.0.1}
                """);
        List<List<String>> bad = List.of(
                List.of("client", "10.0.0.2", "--duration", "-3"),
                List.of("client", "10.0.0.2", "--duration", "0"),
                List.of("server", "--timeout", "0"),
                List.of("client", "10.0.0.2", "--size", "0"),
                List.of("client", "10.0.0.2", "--ib-port", "0"),
                List.of("client", "10.0.0.2", "--gid-index", "-1"),
                List.of("client", "10.0.0.2", "--spec", "cluster.yaml", "--network", "rail0"));
        for (List<String> args : bad) {
            err.getBuffer().setLength(0);
            assertThat(run(machine, Optional.of(withoutRail), args.toArray(String[]::new))).as(args + ": " + err).isEqualTo(2);
        }
        assertThat(probed.get()).as("inventory probes").isZero();
        err.getBuffer().setLength(0);
        run(machine, Optional.empty(), "client", "10.0.0.2", "--duration", "-3");
        assertThat(err.toString()).contains("--duration must be at least 1 second, got -3");
    }
}
