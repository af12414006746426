package dev.railyard.cli;

import dev.railyard.cli.HelpExamples.Outcome;
import dev.railyard.cli.HelpExamples.Sandbox;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every example of every help page, run in a shell as a user would type it, in a sandbox (HelpExamples.Sandbox).
 *
 * <p>Most run as written. Where an example needs what this machine lacks or must not be touched, the command run
 * says so in {@link #CASES}, and the change is one of these: system paths (/etc, /usr/local, /shared, /mnt,
 * /scratch) moved under the sandbox; another host's address (10.0.0.2) replaced by a TCP server this test starts on
 * 127.0.0.1; durations and fio sizes cut to a second and 8 MB; `ssh host CMD` replaced by the command run here;
 * ib_write_bw's output replaced by a real captured one; mpirun's launch left out (the rank runs alone); apply's
 * changes made under a sandbox root. GPU, NCCL and RDMA examples run as written and must stop with exit 3 and a
 * message naming what is missing (this machine has none); examples that reach other nodes (ssh, Slurm, agents) do
 * the same against the spec's nodes, which are loopback addresses nothing listens on.
 */
class HelpExamplesTest {

    /** Run IDs in the history examples; the sandbox's two real validate runs take their places. */
    private static final String EARLIER = "20261126-221512-0c3e";
    private static final String LATER = "20261127-093406-8545";

    private static final String SPEC = """
            cluster: homelab-v100
            nodes:
              - {name: gpuserver1, address: 127.0.0.2}
              - {name: gpuserver2, address: 127.0.0.3}
            networks:
              - name: rail0
                role: compute
                link_layer: ethernet
                rate_gbps: 40
                mtu: 9000
                subnet: 10.0.1.0/24
                bind:
                  gpuserver1: {netdev: ens6, rdma: "mlx4_0:1", address: 10.0.1.1}
                  gpuserver2: {netdev: ens6, rdma: "mlx4_0:1", address: 10.0.1.2}
            """;

    /** How one example is run and judged. */
    record Case(String command, Set<Integer> codes, String expect, String servingWhen) {
    }

    private static Case as(Set<Integer> codes, String expect) {
        return new Case(null, codes, expect, null);
    }

    private static Case run(String command, Set<Integer> codes, String expect) {
        return new Case(command, codes, expect, null);
    }

    private static Case serve(String command, String servingWhen) {
        return new Case(command, Set.of(0), servingWhen, servingWhen);
    }

    private static final Set<Integer> OK = Set.of(0), OK_OR_FAIL = Set.of(0, 1), PREREQUISITE = Set.of(3);

    static final Map<String, Case> CASES = new LinkedHashMap<>();

    static {
        String shared = "mkdir -p $SANDBOX/shared/reports && ";
        CASES.put("railyard inventory", as(OK, "Node "));
        CASES.put("railyard inventory --format json | jq '.gpu.gpus[].memory.value.totalBytes'", run(
                "railyard inventory --format json | jq '.gpu.gpus[].memory.value.totalBytes' && railyard inventory"
                        + " --root node-capture --format json | jq '.gpu.gpus[].memory.value.totalBytes'",
                OK, "150754820096"));
        CASES.put("railyard inventory --root ./node-capture", as(OK, "NVIDIA H200"));
        CASES.put("railyard check", as(OK_OR_FAIL, "Checks on"));
        CASES.put("railyard check --spec cluster.yaml --only rdma.", as(OK_OR_FAIL, "rdma"));
        CASES.put("railyard check --root ./node-capture --format junit > railyard-check.xml", run(
                "railyard check --root ./node-capture --format junit > railyard-check.xml; c=$?; cat railyard-check.xml;"
                        + " exit $c", OK_OR_FAIL, "<testsuite"));
        CASES.put("railyard init > cluster.yaml", run("railyard init > cluster.yaml && cat cluster.yaml", OK, "cluster:"));
        CASES.put("railyard init --name homelab-v100 --out cluster.yaml", run(
                "rm cluster.yaml && railyard init --name homelab-v100 --out cluster.yaml && cat cluster.yaml", OK,
                "cluster: homelab-v100"));
        CASES.put("railyard init --root ./node-capture", as(OK, "NVIDIA H200"));
        CASES.put("railyard capture --out gpuserver1.tgz", as(OK, "wrote gpuserver1.tgz"));
        CASES.put("tar -xzf gpuserver1.tgz && railyard inventory --root gpuserver1", run(
                "railyard capture --out gpuserver1.tgz && tar -xzf gpuserver1.tgz && railyard inventory --root gpuserver1",
                OK, "Node "));
        CASES.put("railyard capture --redact --out - | ssh admin@jumphost 'cat > gpuserver1.tgz'", run(
                "railyard capture --redact --out - | bash -c 'cat > gpuserver1.tgz' && tar -tzf gpuserver1.tgz", OK,
                "railyard/CAPTURE.txt"));
        CASES.put("railyard bench tcp server --bind 10.0.0.2", serve(
                "railyard bench tcp server --bind 127.0.0.1 --port $FREE_PORT", "listening on 127.0.0.1:"));
        CASES.put("railyard bench tcp client 10.0.0.2 --streams 4 --duration 10s", run(
                "railyard bench tcp client 127.0.0.1 --port $TCP_PORT --streams 4 --duration 1s", OK, "Gbits/sec"));
        CASES.put("railyard bench tcp client 10.0.0.2 --mode latency --msg-size 64 --format json", run(
                "railyard bench tcp client 127.0.0.1 --port $TCP_PORT --mode latency --msg-size 64 --duration 1s"
                        + " --format json", OK, "\"oneWay\""));
        for (String rdma : List.of("server", "client 10.0.0.2", "client 10.0.0.2 --test write_lat",
                "client 10.0.0.2 --spec cluster.yaml --network rail0")) {
            CASES.put("railyard bench rdma " + rdma, as(PREREQUISITE, "no RDMA device"));
        }
        CASES.put("railyard bench nccl all_reduce -b 8 -e 2G -f 2 -g 4", as(PREREQUISITE, "railyard: "));
        CASES.put("railyard bench nccl all_gather -b 64M -e 1G -f 2 --procs 4", as(PREREQUISITE, "railyard: "));
        CASES.put("mpirun -np 16 -H n1:8,n2:8 railyard bench nccl -b 1G -e 1G --rendezvous n1:29500", run(
                "railyard bench nccl -b 1G -e 1G --rendezvous n1:29500", PREREQUISITE, "railyard: "));
        CASES.put("railyard bench gpu", as(PREREQUISITE, "railyard: "));
        CASES.put("railyard burn --duration 10m", as(PREREQUISITE, "railyard: "));
        CASES.put("railyard burn --duration 60s --precision fp32 --devices 0,1 --format json", as(PREREQUISITE, "railyard: "));
        CASES.put("railyard burn --duration 30m --tolerance 5 --host-watts 1500", as(PREREQUISITE, "railyard: "));
        CASES.put("railyard bench gpu --devices 0,1 --size 1G --format json", as(PREREQUISITE, "railyard: "));
        CASES.put("railyard bench storage --dir /mnt/nvme", run("mkdir -p $SANDBOX/mnt/nvme &&"
                + " railyard bench storage --dir $SANDBOX/mnt/nvme --size 8M --runtime 1", OK, "MB/s"));
        CASES.put("railyard bench storage --file /scratch/ry.dat --size 4G --expect-mbps 2000", run(
                "mkdir -p $SANDBOX/scratch && railyard bench storage --file $SANDBOX/scratch/ry.dat --size 8M"
                        + " --runtime 1 --expect-mbps 2000", OK_OR_FAIL, "bench.storage.seq"));
        CASES.put("railyard bench storage --dir /dev/shm --no-direct --format json", run(
                "railyard bench storage --dir /dev/shm --no-direct --format json --size 8M --runtime 1", OK, "\"results\""));
        CASES.put("ib_write_bw -d mlx5_0 10.0.0.2 2>&1 | railyard diagnose - --rate 100", run(
                "cat ib_write_bw.txt 2>&1 | railyard diagnose - --rate 100", OK, "Recognised: perftest"));
        CASES.put("railyard diagnose all_reduce.log --busbw 180", as(OK, "PASS    bench.nccl.busbw"));
        CASES.put("railyard diagnose ibstat.txt", as(OK, "Recognised: ibstat"));
        CASES.put("dmesg | railyard diagnose - --format json", as(OK_OR_FAIL, "\"verdict\""));
        CASES.put("railyard render --spec cluster.yaml --node gpuserver1 --out etc-gpuserver1/",
                as(OK, "etc-gpuserver1/etc/hosts"));
        CASES.put("railyard render --spec cluster.yaml --node gpuserver1 --root / --out out/", as(OK, "out/etc/hosts"));
        CASES.put("railyard render --spec cluster.yaml --out rendered/", as(OK, "gpuserver2"));
        CASES.put("railyard apply --spec cluster.yaml --node gpuserver1", as(OK, "+++ /etc/hosts"));
        CASES.put("railyard apply --spec cluster.yaml --node gpuserver1 --apply --restart-network", run(
                "railyard apply --spec cluster.yaml --node gpuserver1 --apply --restart-network --root root", OK,
                "+++ /etc/hosts"));
        CASES.put("railyard apply --spec cluster.yaml --node gpuserver1 --apply --take-over ib0", run(
                "railyard apply --spec cluster.yaml --node gpuserver1 --apply --take-over ib0 --root root", OK,
                "+++ /etc/hosts"));
        CASES.put("railyard apply --spec cluster.yaml --node gpuserver1 --apply --no-start", run(
                "railyard apply --spec cluster.yaml --node gpuserver1 --apply --no-start --root root", OK,
                "+++ /etc/hosts"));
        CASES.put("railyard apply --undo", run("railyard apply --spec cluster.yaml --node gpuserver1 --apply --root root"
                + " && railyard apply --undo --root root", OK, "removed /etc/hosts"));
        CASES.put("railyard apply --spec cluster.yaml --nodes all", as(PREREQUISITE, "UNREACHABLE"));
        CASES.put("railyard apply --spec cluster.yaml --nodes all --launcher slurm --apply",
                as(PREREQUISITE, "salloc"));
        CASES.put("railyard plan power --nodes 8 --gpus-per-node 8 --gpu-watts 700 --psu-watts 2000 --psus-per-node 2",
                as(OK, "44.8 kW"));
        CASES.put("railyard plan allreduce --gpus 64 --gpus-per-node 8 --size 100000000 --fabric ib-hdr --params 7e9"
                + " --step-time 1.0", as(OK, "GB/s"));
        CASES.put("railyard plan storage --nodes 8 --bytes-per-step 4000000 --reads-per-step 2 --steps-per-second 100",
                as(OK, "MB/s"));
        CASES.put("railyard plan storage --nodes 8 --gpus-per-node 8 --tokens 4096 --batch 8 --bytes-per-token 2"
                + " --measured-mbps 2100", as(OK, "MB/s"));
        CASES.put("railyard plan rails --nodes 8 --rails 1 --radix 36", as(OK, "switch"));
        CASES.put("railyard plan rails --nodes 32 --rails 8 --radix 40", as(OK, "switch"));
        CASES.put("railyard agent --spec cluster.yaml --slurm", serve(
                "railyard agent --spec cluster.yaml --slurm --listen 127.0.0.1:0", "serving http://127.0.0.1:"));
        CASES.put("railyard agent --listen 127.0.0.1:9410 --interval 5s", serve(
                "railyard agent --listen 127.0.0.1:0 --interval 5s", "serving http://127.0.0.1:"));
        CASES.put("railyard agent --once --format json", as(OK_OR_FAIL, "\"health\""));
        CASES.put("railyard agent clear all --token-file /etc/railyard/agent.token", run(
                "railyard agent clear all --token-file $SANDBOX/etc/railyard/agent.token --url http://127.0.0.1:$FREE_PORT",
                PREREQUISITE, "railyard: "));
        CASES.put("railyard agent clear mlx5_0:1 --url http://gpu07:9410 --token-file ~/.railyard-token",
                as(PREREQUISITE, "gpu07"));
        CASES.put("railyard status --spec cluster.yaml", as(Set.of(1), "UNREACHABLE"));
        CASES.put("railyard status --spec cluster.yaml --format json | jq '.nodes[] | select(.health != \"HEALTHY\")'",
                as(Set.of(1), "\"unreachable\""));
        CASES.put("railyard validate", as(OK_OR_FAIL, "Validation of"));
        CASES.put("railyard validate --spec cluster.yaml", as(PREREQUISITE, "UNREACHABLE"));
        CASES.put("railyard validate --spec cluster.yaml --launcher slurm --full --out /shared/reports/today", run(
                shared + "railyard validate --spec cluster.yaml --launcher slurm --full --out $SANDBOX/shared/reports/today",
                PREREQUISITE, "salloc"));
        CASES.put("railyard validate --spec cluster.yaml --max-parallel 16 --step-timeout 2m --format json > run.json",
                run("railyard validate --spec cluster.yaml --max-parallel 16 --step-timeout 2m --format json > run.json;"
                        + " c=$?; cat run.json; exit $c", PREREQUISITE, "\"UNREACHABLE\""));
        CASES.put("railyard validate --no-history --quick", as(OK_OR_FAIL, "Validation of"));
        CASES.put("railyard history", as(OK, LATER));
        CASES.put("railyard history --format json --db ./history.db", as(OK, LATER));
        CASES.put("railyard history " + LATER, as(OK, LATER));
        CASES.put("railyard history show " + LATER, as(OK, LATER));
        CASES.put("railyard history show " + LATER + " --out ./report-again", run(
                "railyard history show " + LATER + " --out ./report-again && ls report-again", OK, "index.html"));
        CASES.put("railyard compare " + EARLIER + " " + LATER, as(OK, LATER));
        CASES.put("railyard compare " + EARLIER + " " + LATER + " --format json --db ./history.db", as(OK, LATER));
        CASES.put("railyard bundle", run("railyard bundle && stat -c 'mode %a' railyard-*.tar.gz", OK, "mode 644"));
        CASES.put("railyard bundle --out /shared/railyard.tar.gz", run(
                shared + "railyard bundle --out $SANDBOX/shared/railyard.tar.gz", OK, "railyard.tar.gz"));
        CASES.put("mkdir ry && tar -xzf railyard-*.tar.gz -C ry && ry/bin/railyard inventory", run(
                "railyard bundle && mkdir ry && tar -xzf railyard-*.tar.gz -C ry && ry/bin/railyard inventory", OK,
                "Node "));
        CASES.put("railyard completion > /etc/bash_completion.d/railyard", run(
                "mkdir -p $SANDBOX/etc/bash_completion.d && railyard completion > $SANDBOX/etc/bash_completion.d/railyard"
                        + " && grep -c railyard $SANDBOX/etc/bash_completion.d/railyard", OK, ""));
        CASES.put("source <(railyard completion)", run("source <(railyard completion) && complete -p railyard", OK,
                "railyard"));
        CASES.put("railyard man > /usr/local/share/man/man1/railyard.1", run(
                "mkdir -p $SANDBOX/usr/local/share/man/man1 && railyard man > $SANDBOX/usr/local/share/man/man1/railyard.1"
                        + " && head -c 200 $SANDBOX/usr/local/share/man/man1/railyard.1", OK, ".TH RAILYARD"));
        CASES.put("railyard man | man -l -", as(OK, "RAILYARD(1)"));
        CASES.put("railyard version", as(OK, "railyard "));
        CASES.put("railyard --version", as(OK, "(commit "));
        CASES.put("railyard help check", as(OK, "Usage: railyard check"));
        CASES.put("railyard help bench nccl", as(OK, "Usage: railyard bench nccl"));
    }

    @TempDir
    static Path dir;
    static Sandbox sandbox;
    static Process tcpServer;
    static String tcpPort;
    static Map<String, String> ids = new LinkedHashMap<>();

    @Test
    void everyExampleInHelpHasACaseAndEveryCaseAnExample() {
        assertThat(CASES.keySet()).containsExactlyInAnyOrderElementsOf(HelpExamples.all().keySet());
    }

    @Test
    void examplesUseRunIdsOfTheShapeValidateGives() {
        Pattern runId = Pattern.compile("\\d{8}-\\d{6}-[0-9a-f]{4}");
        assertThat(LATER).matches(runId);
        assertThat(EARLIER).matches(runId);
    }

    @BeforeAll
    static void sandboxWithTwoRunsAndATcpServer() throws Exception {
        sandbox = Sandbox.create(dir);
        Path etc = Files.createDirectories(dir.resolve("etc/railyard"));
        Files.writeString(etc.resolve("agent.token"), "sandbox-token-0123456789abcdef\n");
        Files.setPosixFilePermissions(etc.resolve("agent.token"), PosixFilePermissions.fromString("rw-------"));
        Files.writeString(sandbox.home().resolve(".railyard-token"), "sandbox-token-0123456789abcdef\n");
        Files.setPosixFilePermissions(sandbox.home().resolve(".railyard-token"), PosixFilePermissions.fromString("rw-------"));
        Path setup = sandbox.work("setup", Map.of(), Map.of());
        Pattern id = Pattern.compile("run (\\d{8}-\\d{6}-[0-9a-f]{4})");
        for (String name : List.of(EARLIER, LATER)) {
            Outcome o = sandbox.run(setup, "railyard validate --quick", 300);
            Matcher m = id.matcher(o.output());
            assertThat(m.find()).as(o.output()).isTrue();
            ids.put(name, m.group(1));
        }
        tcpPort = String.valueOf(freePort());
        tcpServer = sandbox.shell(setup, "exec railyard bench tcp server --bind 127.0.0.1 --port " + tcpPort).start();
        var reader = tcpServer.inputReader();
        String line = reader.readLine();
        assertThat(line).as("the TCP server's first line").contains("listening on 127.0.0.1:" + tcpPort);
        Thread.ofPlatform().daemon().start(() -> reader.lines().forEach(l -> { })); // keeps its pipe drained
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        if (tcpServer != null) {
            tcpServer.destroy();
            tcpServer.waitFor();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyExampleRuns() {
        return CASES.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> check(e.getKey(), e.getValue())));
    }

    private static void check(String example, Case c) throws Exception {
        String command = c.command() == null ? example : c.command();
        for (var id : ids.entrySet()) command = command.replace(id.getKey(), id.getValue());
        String expect = c.expect();
        for (var id : ids.entrySet()) expect = expect.replace(id.getKey(), id.getValue());
        command = command.replace("$TCP_PORT", tcpPort).replace("$FREE_PORT", String.valueOf(freePort()));
        Path work = sandbox.work(String.valueOf(Math.abs(example.hashCode())), fixtures(), links());
        Files.createDirectories(work.resolve("root/etc"));
        Files.writeString(work.resolve("root/etc/hostname"), "gpuserver1\n");
        Path db = sandbox.home().resolve(".local/share/railyard/history.db");
        if (Files.exists(db)) Files.copy(db, work.resolve("history.db"));
        Outcome o = c.servingWhen() != null ? sandbox.serve(work, command, c.servingWhen(), 120)
                : sandbox.run(work, command, 300);
        assertThat(o.output()).as(command).contains(expect);
        // a server asked for port 0 says which port it got
        assertThat(o.output()).as(command).doesNotContain("127.0.0.1:0/");
        assertThat(c.codes()).as(command + "\n" + o.output()).contains(o.code());
    }

    private static Map<String, String> fixtures() throws IOException {
        Path res = Path.of("src/test/resources");
        return Map.of("cluster.yaml", SPEC,
                "all_reduce.log", Files.readString(res.resolve("bench/nccltests/superbench-nccl_allreduce.log.txt")),
                "ibstat.txt", Files.readString(res.resolve("ib-tools/gpud-ibstat-h100-all-active-0.txt")),
                "ib_write_bw.txt", Files.readString(res.resolve("bench/perftest/dranet-ib_write_bw-cuda-dmabuf-report_gbits-h200.txt")));
    }

    private static Map<String, Path> links() {
        return Map.of("node-capture", Path.of("src/test/resources/trees/h200x4-capture"));
    }
}
