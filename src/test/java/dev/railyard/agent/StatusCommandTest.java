package dev.railyard.agent;

import dev.railyard.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** `railyard status` over real agents on loopback addresses: one healthy-ish, one unhealthy, one not running. */
class StatusCommandTest {

    @Test
    void oneTableNamesTheUnhealthyAndTheUnreachableNodes(@TempDir Path a, @TempDir Path b, @TempDir Path dir) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        AgentTree good = new AgentTree(a);
        AgentTree bad = new AgentTree(b);
        Agent goodAgent = good.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        Agent badAgent = bad.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        goodAgent.tick();
        bad.appendKernelLog("[ 99.000001] NVRM: Xid (PCI:0000:1b:00): 79, pid=0, GPU has fallen off the bus.");
        badAgent.tick();
        Path spec = dir.resolve("cluster.yaml");
        Files.writeString(spec, """
                cluster: lab
                nodes:
                  - {name: n1, address: 127.0.0.1}
                  - {name: n2, address: 127.0.0.2}
                  - {name: n3, address: 127.0.0.3}
                """);
        try (AgentHttpServer s1 = new AgentHttpServer(new InetSocketAddress("127.0.0.1", port), goodAgent, Optional.empty(),
                Duration.ofMinutes(1), good.clock::now);
             AgentHttpServer s2 = new AgentHttpServer(new InetSocketAddress("127.0.0.2", port), badAgent, Optional.empty(),
                     Duration.ofMinutes(1), bad.clock::now)) {
            s1.start();
            s2.start();
            StringWriter out = new StringWriter();
            CommandLine cl = Main.commandLine();
            cl.setOut(new PrintWriter(out));
            cl.setErr(new PrintWriter(new StringWriter()));
            int rc = cl.execute("status", "--spec", spec.toString(), "--port", String.valueOf(port), "--timeout", "20s");
            String text = out.toString();
            assertThat(rc).isEqualTo(1);
            assertThat(text).containsPattern("n1 +DEGRADED|n1 +HEALTHY");
            assertThat(text).containsPattern("n2 +UNHEALTHY .*gpu.xid");
            assertThat(text).containsPattern("n3 +UNREACHABLE").contains("no agent at http://127.0.0.3:" + port + "/api/health (connection refused)");
            assertThat(text).contains("3 nodes: 1 unhealthy, 1 unreachable");
            assertThat(text).as("the real tree: 8 IB ports healthy, the RoCE bond has no IPv4 address").containsPattern("n1 +\\S+ +0/0 +8/9");
        }
    }

    @Test
    void withoutPortTheSpecsAgentListenPortIsAsked(@TempDir Path a, @TempDir Path dir) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        AgentTree tree = new AgentTree(a);
        Agent agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        agent.tick();
        Path spec = dir.resolve("cluster.yaml");
        Files.writeString(spec, "cluster: lab\nnodes:\n  - {name: n1, address: 127.0.0.1}\nagent: {listen: \":" + port + "\"}\n");
        try (AgentHttpServer s1 = new AgentHttpServer(new InetSocketAddress("127.0.0.1", port), agent, Optional.empty(),
                Duration.ofMinutes(1), tree.clock::now)) {
            s1.start();
            StringWriter out = new StringWriter();
            CommandLine cl = Main.commandLine();
            cl.setOut(new PrintWriter(out));
            cl.setErr(new PrintWriter(new StringWriter()));
            int rc = cl.execute("status", "--spec", spec.toString(), "--timeout", "20s");
            assertThat(out.toString()).contains("1 nodes: 0 unhealthy, 0 unreachable");
            assertThat(rc).isZero();
        }
    }
}
