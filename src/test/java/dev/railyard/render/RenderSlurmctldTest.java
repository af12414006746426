package dev.railyard.render;

import dev.railyard.model.ClusterSpec;
import dev.railyard.platform.CommandRunner;
import dev.railyard.spec.SpecReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real slurmctld (Debian's slurm-wlm) started in the foreground on a slurm.conf that includes the rendered node
 * and partition lines, with the rendered gres.conf and topology.conf beside it; scontrol then reads back nodes,
 * GRES, partition and switches. It runs in its own network namespace (root only), so its pings of the specs' node
 * addresses reach nobody. auth/none stands in for munge: authentication is not what these files configure.
 */
class RenderSlurmctldTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private final CommandRunner runner = CommandRunner.system();
    private Path slurmctld;
    private Path scontrol;
    private Path ip;

    @BeforeEach
    void tools() {
        slurmctld = RealTools.require("slurmctld", "slurmctld");
        scontrol = RealTools.require("scontrol", "slurm-client");
        ip = RealTools.require("ip", "iproute2");
        RealTools.requireRoot("slurmctld runs in a network namespace of its own");
    }

    @Test
    void s4EightH100NodesOnOneHdrSwitch(@TempDir Path dir) throws Exception {
        ClusterSpec spec = Examples.spec("s4-h100-hdr");
        try (NetworkNamespace ns = new NetworkNamespace(ip.toString())) {
            Path conf = config(dir, spec, spec.nodes().getFirst().name(), "");
            Process p = start(ns, conf);
            try {
                awaitController(p);
                String nodes = scontrol(ns, conf, "-o", "show", "node");
                for (ClusterSpec.Node n : spec.nodes()) {
                    assertThat(nodes).containsPattern("NodeName=" + n.name() + " .*Gres=gpu:h100:8 .*NodeAddr=" + n.address().replace(".", "\\.") + " ");
                }
                assertThat(scontrol(ns, conf, "-o", "show", "partition")).contains("PartitionName=gpu-training ")
                        .contains("Nodes=compute[01-08] ").contains("Default=YES");
                assertThat(scontrol(ns, conf, "show", "topology")).contains("SwitchName=ib-hdr Level=0").contains("Nodes=compute[01-08]");
            } finally {
                stop(ns, conf, p);
            }
        }
    }

    @Test
    void s3MixedGpusAndS1TwoRailsUnderOneParent(@TempDir Path dir) throws Exception {
        ClusterSpec s3 = withSlurm("s3-r730-ib-qdr");
        try (NetworkNamespace ns = new NetworkNamespace(ip.toString())) {
            Path conf = config(dir.resolve("s3"), s3, "r720", "");
            Process p = start(ns, conf);
            try {
                awaitController(p);
                String nodes = scontrol(ns, conf, "-o", "show", "node");
                assertThat(nodes).containsPattern("NodeName=r720 .*Gres=gpu:p4:2 ")
                        .containsPattern("NodeName=r730-1 .*Gres=gpu:t4:2 ").containsPattern("NodeName=r730-2 .*Gres=gpu:t4:1 ");
            } finally {
                stop(ns, conf, p);
            }
        }
        ClusterSpec s1 = withSlurm("s1-homelab-v100-roce");
        try (NetworkNamespace ns = new NetworkNamespace(ip.toString())) {
            Path conf = config(dir.resolve("s1"), s1, "gpuserver1", "");
            Process p = start(ns, conf);
            try {
                awaitController(p);
                assertThat(scontrol(ns, conf, "show", "topology")).contains("SwitchName=fabric Level=1")
                        .contains("SwitchName=rail0 Level=0").contains("SwitchName=rail1 Level=0");
            } finally {
                stop(ns, conf, p);
            }
        }
    }

    /** The rendered comment says slurmctld refuses the H100 write-up's MaxConcurrentJobs: this is that claim, checked. */
    @Test
    void slurmctldRefusesTheH100WriteUpsMaxConcurrentJobs(@TempDir Path dir) throws Exception {
        ClusterSpec spec = Examples.spec("s4-h100-hdr");
        try (NetworkNamespace ns = new NetworkNamespace(ip.toString())) {
            Path conf = config(dir, spec, "compute01", "MaxConcurrentJobs=64\n");
            Process p = start(ns, conf);
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isNotZero();
            assertThat(out).contains("unrecognized key: MaxConcurrentJobs").contains("fatal");
        }
    }

    private static ClusterSpec withSlurm(String example) throws IOException {
        String text = Files.readString(Path.of("examples", example + ".yaml")) + "\nslurm: {partition: lab}\n";
        return new SpecReader().read(example + ".yaml", text);
    }

    /** slurm.conf with what a site adds around the rendered lines; gres.conf and topology.conf sit beside it. */
    private static Path config(Path dir, ClusterSpec spec, String node, String extra) throws IOException {
        Path etc = dir.resolve("etc");
        NodeRenderer.write(etc, NodeRenderer.all().render(spec, node, Optional.empty(), RenderInput.DEFAULT_AGENT_PORT));
        Path slurmDir = etc.resolve("etc/slurm");
        Files.createDirectories(dir.resolve("state"));
        Path conf = slurmDir.resolve("slurm.conf");
        Files.writeString(conf, """
                ClusterName=railyardtest
                SlurmctldHost=localhost
                SlurmUser=root
                AuthType=auth/none
                CredType=cred/none
                StateSaveLocation=%s
                SlurmctldPidFile=%s
                MailProg=/bin/true
                MpiDefault=none
                ProctrackType=proctrack/linuxproc
                GresTypes=gpu
                TopologyPlugin=topology/tree
                Include %s
                %s""".formatted(dir.resolve("state"), dir.resolve("slurmctld.pid"), slurmDir.resolve("railyard-nodes.conf"), extra));
        return conf;
    }

    private Process start(NetworkNamespace ns, Path conf) throws IOException {
        return new ProcessBuilder(ns.exec(List.of(slurmctld.toString(), "-D", "-f", conf.toString())))
                .redirectErrorStream(true).start();
    }

    /** Reads slurmctld's log until it says it serves; its end of output first means it exited, with the reason. */
    private static void awaitController(Process p) throws InterruptedException {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) lines.add(line);
            } catch (IOException e) {
                lines.add("read failed: " + e);
            }
            lines.add("<end of output>");
        });
        StringBuilder seen = new StringBuilder();
        while (true) {
            String line = lines.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (line == null) throw new AssertionError("slurmctld said nothing for " + TIMEOUT + ":\n" + seen);
            seen.append(line).append('\n');
            if (line.contains("Running as primary controller")) return;
            if (line.equals("<end of output>")) throw new AssertionError("slurmctld exited:\n" + seen);
            if (line.contains("fatal")) throw new AssertionError("slurmctld: " + line + "\n" + seen);
        }
    }

    private String scontrol(NetworkNamespace ns, Path conf, String... args) {
        List<String> argv = new java.util.ArrayList<>(List.of(scontrol.toString()));
        argv.addAll(List.of(args));
        CommandRunner.Result r = runner.run(ns.exec(argv), TIMEOUT, conf.getParent(), Map.of("SLURM_CONF", conf.toString()));
        assertThat(r.ok()).as("scontrol %s: %s%s", List.of(args), r.stdout(), r.stderr()).isTrue();
        return r.stdout();
    }

    /** scontrol shutdown, then the process itself: nothing is left running after the test. */
    private void stop(NetworkNamespace ns, Path conf, Process p) throws InterruptedException {
        runner.run(ns.exec(List.of(scontrol.toString(), "shutdown")), TIMEOUT, conf.getParent(), Map.of("SLURM_CONF", conf.toString()));
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
