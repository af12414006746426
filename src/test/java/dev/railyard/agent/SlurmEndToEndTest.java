package dev.railyard.agent;

import dev.railyard.nativelib.FakeNvmlLibrary;
import dev.railyard.testing.RealSlurm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Railyard's own processes against a real slurmctld and slurmd: `railyard agent --slurm` on a copy of the H100 tree
 * with the fake NVML drains the node for each injected fault (port down, symbol errors, Xid 79; uncorrectable ECC is
 * injected in-process in AgentHttpTest, since the fake's switch lives in the agent's own process) and
 * `railyard check --slurm-healthcheck` acts like NHC.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SlurmEndToEndTest {

    Path dir;
    RealSlurm slurm;

    @BeforeAll
    void startSlurm() throws Exception {
        dir = Files.createTempDirectory("railyard-e2e");
        slurm = RealSlurm.start(dir.resolve("slurm"), List.of("n1"));
    }

    @AfterAll
    void stop() {
        if (slurm != null) slurm.close();
    }

    @BeforeEach
    void resumed() throws Exception {
        if (slurm.scontrol("show", "node", "-o", "n1").contains("DRAIN")) slurm.scontrol("update", "NodeName=n1", "State=RESUME");
    }

    private String node() throws Exception {
        return slurm.scontrol("show", "node", "-o", "n1");
    }

    /** Polls Slurm (not a fixed wait) until the node shows DRAIN, up to the limit; returns the line or fails. */
    private String awaitDrained(long limitMillis) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limitMillis);
        String line = "";
        while (System.nanoTime() < deadline) {
            line = node();
            if (line.contains("DRAIN")) return line;
            Thread.sleep(50);
        }
        throw new AssertionError("not drained within " + limitMillis + " ms: " + line);
    }

    interface Fault {
        void inject(AgentTree tree, FakeNvmlLibrary nvml) throws Throwable;
    }

    private void agentDrainsFor(String expectedReason, Fault fault) throws Throwable {
        Path treeDir = Files.createTempDirectory(dir, "tree");
        AgentTree tree = new AgentTree(treeDir);
        tree.kernelLog.close();
        try (FakeNvmlLibrary nvml = FakeNvmlLibrary.build(Files.createTempDirectory(dir, "lib"), "FAKE_NVML_ONE_GPU")) {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            Map<String, String> env = new HashMap<>(slurm.env());
            env.put("RAILYARD_NVML", nvml.path().toString());
            Process agent = ChildRailyard.start(env, "agent", "--root", treeDir.toString(), "--node", "n1", "--slurm",
                    "--listen", "127.0.0.1:" + port, "--interval", "1s", "--link-drop", "0s", "--hold-down", "1m");
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(agent.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine()).contains("serving http://127.0.0.1:" + port);
                awaitSampled(port);
                assertThat(node()).doesNotContain("DRAIN");
                fault.inject(tree, nvml);
                String line = awaitDrained(15_000);
                assertThat(line).contains("Reason=railyard:").contains(expectedReason);
            } finally {
                agent.destroy();
                agent.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private void awaitSampled(int port) throws Exception {
        var client = java.net.http.HttpClient.newHttpClient();
        var req = java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/healthz")).build();
        for (int i = 0; i < 600; i++) {
            try {
                if (client.send(req, java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode() == 200) return;
            } catch (java.io.IOException e) {
                // not listening yet
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the agent never sampled");
    }

    @Test
    void aPortGoingDownDrainsTheNode() throws Throwable {
        agentDrainsFor("mlx5_0:1 rdma.port.state", (t, n) -> t.write(AgentTree.PORT + "/state", "1: DOWN\n"));
    }

    @Test
    void symbolErrorsRisingFastDrainTheNode() throws Throwable {
        agentDrainsFor("rdma.counters", (t, n) -> t.write(AgentTree.PORT + "/counters/symbol_error", "25\n"));
    }

    @Test
    void anXid79DrainsTheNode() throws Throwable {
        agentDrainsFor("gpu.xid", (t, n) -> t.appendKernelLog(
                "[ 4242.000001] NVRM: Xid (PCI:0000:1b:00): 79, pid=0, GPU has fallen off the bus."));
    }

    @Test
    void theHealthcheckDrainsOnAFailAndResumesItsOwnDrain() throws Exception {
        Path treeDir = Files.createTempDirectory(dir, "hc");
        AgentTree tree = new AgentTree(treeDir);
        tree.kernelLog.close();
        tree.appendKernelLog("[ 77.000001] NVRM: Xid (PCI:0000:1b:00): 79, pid=0, GPU has fallen off the bus.");
        Process p = ChildRailyard.start(slurm.env(), "check", "--root", treeDir.toString(), "--slurm-healthcheck",
                "--slurm-node", "n1", "--only", "gpu.xid");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isEqualTo(1);
        assertThat(out).as("one line, as NHC prints").startsWith("railyard: drained n1").hasLineCount(1);
        assertThat(node()).contains("Reason=railyard: gpu.xid");

        Files.writeString(treeDir.resolve("railyard/dmesg.txt"), "[    0.000000] Linux version 6.8.0\n");
        p = ChildRailyard.start(slurm.env(), "check", "--root", treeDir.toString(), "--slurm-healthcheck",
                "--slurm-node", "n1", "--only", "gpu.xid");
        out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).startsWith("railyard: resumed n1").hasLineCount(1);
        assertThat(node()).doesNotContain("DRAIN");
    }

    @Test
    void theHealthcheckLeavesAnAdminsDrainAlone() throws Exception {
        slurm.scontrol("update", "NodeName=n1", "State=DRAIN", "Reason=bios update (bob)");
        Path treeDir = Files.createTempDirectory(dir, "hc2");
        AgentTree tree = new AgentTree(treeDir);
        tree.kernelLog.close();
        Process p = ChildRailyard.start(slurm.env(), "check", "--root", treeDir.toString(), "--slurm-healthcheck",
                "--slurm-node", "n1", "--only", "gpu.xid");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(out).as("a healthy node says nothing").isEmpty();
        assertThat(node()).contains("Reason=bios update (bob)");
    }
}
