package dev.railyard.cluster;

import dev.railyard.cli.Main;
import dev.railyard.model.NetInterface.RdmaPortRef;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeArgvTest {

    /** Each kind of request, with its optional parts both given and left out. */
    static final List<NodeRequest> REQUESTS = List.of(
            new NodeRequest.Inventory(),
            new NodeRequest.Check("gpu-01", Optional.empty()),
            new NodeRequest.Check("gpu-01", Optional.of("Y2x1c3RlcjogbGFi")),
            new NodeRequest.TcpServer("10.0.0.2", 5201, false),
            new NodeRequest.TcpServer("127.0.0.1", 40123, true),
            new NodeRequest.TcpClient("10.0.0.2", 5201, Duration.ofSeconds(20), Optional.of("10.0.0.1"),
                    NodeRequest.TcpMode.BANDWIDTH, Duration.ofSeconds(2), OptionalInt.of(4)),
            new NodeRequest.TcpClient("10.0.0.2", 5202, Duration.ofSeconds(20), Optional.empty(),
                    NodeRequest.TcpMode.LATENCY, Duration.ofMillis(1500), OptionalInt.empty()),
            new NodeRequest.TcpClient("127.0.0.1", 40123, Duration.ofSeconds(20), Optional.empty(),
                    NodeRequest.TcpMode.BANDWIDTH, Duration.ofSeconds(1), OptionalInt.empty()),
            new NodeRequest.RdmaServer(new NodeRequest.RdmaOptions(NodeRequest.RdmaTest.WRITE_BW, 300,
                    OptionalLong.of(2), Optional.of("ens1f0np0"), Optional.of(new RdmaPortRef("mlx5_0", 1)))),
            new NodeRequest.RdmaServer(new NodeRequest.RdmaOptions(NodeRequest.RdmaTest.WRITE_LAT, 300,
                    OptionalLong.empty(), Optional.empty(), Optional.empty())),
            new NodeRequest.RdmaClient("10.0.0.2", new NodeRequest.RdmaOptions(NodeRequest.RdmaTest.WRITE_BW, 120,
                    OptionalLong.of(10), Optional.of("ib0"), Optional.empty())),
            new NodeRequest.RdmaClient("10.0.0.2", new NodeRequest.RdmaOptions(NodeRequest.RdmaTest.WRITE_LAT, 120,
                    OptionalLong.empty(), Optional.of("ens1f1np1"), Optional.of(new RdmaPortRef("mlx5_1", 1)))),
            new NodeRequest.GpuCopy(Optional.empty(), OptionalInt.empty()),
            new NodeRequest.GpuCopy(Optional.of("64M"), OptionalInt.of(5)),
            new NodeRequest.Storage(Optional.empty()),
            new NodeRequest.Storage(Optional.of(2000.0)),
            new NodeRequest.NcclLocal("1G", 8),
            new NodeRequest.NcclRank("128M", 3, 16, 3, "gpu-01:29500"),
            new NodeRequest.Burn(Duration.ofMinutes(10)));

    @Test
    void everyKindOfRequestIsReadBackAsItWasWritten() {
        for (NodeRequest r : REQUESTS) {
            assertThat(NodeArgv.read(NodeArgv.write(r))).as(String.join(" ", NodeArgv.write(r))).isEqualTo(r);
        }
    }

    @Test
    void aBenchmarkStepMarkedAsOneOfARunsIsReadAsTheSameRequest() {
        for (NodeRequest r : REQUESTS) {
            List<String> marked = NodeArgv.inRun(NodeArgv.write(r), "20261127-093406-8545");
            assertThat(NodeArgv.read(marked)).as(String.join(" ", marked)).isEqualTo(r);
            if (marked.getFirst().equals("bench")) {
                assertThat(marked).endsWith(NodeArgv.IN_RUN, "20261127-093406-8545");
                assertThat(Main.commandLine().parseArgs(marked.toArray(String[]::new)).hasSubcommand()).isTrue();
            } else {
                assertThat(marked).isEqualTo(NodeArgv.write(r));
            }
        }
    }

    @Test
    void theCasesCoverEveryKindOfRequest() {
        Set<String> kinds = Arrays.stream(NodeRequest.class.getPermittedSubclasses()).map(Class::getSimpleName)
                .collect(Collectors.toSet());
        assertThat(REQUESTS.stream().map(r -> r.getClass().getSimpleName()).collect(Collectors.toSet()))
                .as("a new kind of request needs its round-trip case here").isEqualTo(kinds);
    }

    @Test
    void theNodesCommandLineTakesEveryRequest() {
        boolean burnCommand = Main.commandLine().getSubcommands().containsKey("burn");
        for (NodeRequest r : REQUESTS) {
            List<String> argv = NodeArgv.write(r);
            // 'railyard burn' is its own command, built beside validate --burn: until it is registered, only its
            // request may be missing from the CLI, and the wire form is pinned in theWireFormIsTheOneNodesAlreadyRun
            if (r instanceof NodeRequest.Burn && !burnCommand) continue;
            CommandLine.ParseResult parsed = Main.commandLine().parseArgs(argv.toArray(String[]::new));
            assertThat(parsed.hasSubcommand()).as(String.join(" ", argv)).isTrue();
        }
    }

    @Test
    void theWireFormIsTheOneNodesAlreadyRun() {
        assertThat(NodeArgv.write(REQUESTS.get(5))).containsExactly("bench", "tcp", "client", "10.0.0.2", "--port",
                "5201", "--format", "json", "--connect-timeout", "20s", "--bind", "10.0.0.1", "--duration", "2000ms",
                "--streams", "4");
        assertThat(NodeArgv.write(REQUESTS.get(11))).containsExactly("bench", "rdma", "client", "10.0.0.2", "--test",
                "write_lat", "--report-gbits", "--format", "json", "--timeout", "120", "--netdev", "ens1f1np1",
                "--ib-dev", "mlx5_1", "--ib-port", "1");
        assertThat(NodeArgv.write(new NodeRequest.Burn(Duration.ofMinutes(10)))).containsExactly("burn", "--duration",
                "600s", "--format", "json");
    }

    @Test
    void argumentsOutsideTheProtocolAreRefusedByName() {
        assertThatThrownBy(() -> NodeArgv.read(List.of("apply", "--plan", "x"))).hasMessageContaining("not a node request");
        assertThatThrownBy(() -> NodeArgv.read(List.of("inventory", "--format", "json", "--root", "/tmp/x")))
                .hasMessageContaining("--root");
        assertThatThrownBy(() -> NodeArgv.read(List.of("bench", "tcp", "client", "--port", "5201")))
                .hasMessageContaining("no server address");
        assertThatThrownBy(() -> NodeArgv.read(List.of("bench", "rdma", "server", "--test", "send_bw", "--report-gbits",
                "--format", "json", "--timeout", "1"))).hasMessageContaining("--test send_bw");
    }
}
