package dev.railyard.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real Slurm on this host for tests: its own munged (own key and socket), slurmctld, and one slurmd per node
 * name (Debian's build runs several on one host, each on its own port), all in a temporary directory and stopped on
 * close. Needs root (slurmd) and Debian's slurm-wlm and munge.
 */
public final class RealSlurm implements AutoCloseable {

    private final Path dir;
    private final Path conf;
    private final List<Process> processes = new ArrayList<>();

    private RealSlurm(Path dir) {
        this.dir = dir;
        this.conf = dir.resolve("slurm.conf");
    }

    public static RealSlurm start(Path dir, List<String> nodes) throws Exception {
        RealTool.require("slurmctld", "slurm-wlm");
        RealTool.require("slurmd", "slurm-wlm");
        RealTool.require("munged", "munge");
        Files.createDirectories(dir);
        RealSlurm s = new RealSlurm(dir);
        try {
            s.startMunge();
            s.writeConf(nodes);
            s.spawn("slurmctld", "-D", "-f", s.conf.toString());
            for (String n : nodes) s.spawn("slurmd", "-D", "-N", n, "-f", s.conf.toString());
            for (String n : nodes) s.awaitNodeUp(n);
        } catch (Exception | AssertionError e) {
            s.close();
            throw e;
        }
        return s;
    }

    public Map<String, String> env() {
        return Map.of("SLURM_CONF", conf.toString());
    }

    /** Runs scontrol against this cluster and returns its stdout; fails the test on a non-zero exit. */
    public String scontrol(String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of("scontrol"));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        pb.environment().putAll(env());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("scontrol " + String.join(" ", args) + " hung");
        }
        if (p.exitValue() != 0) throw new AssertionError("scontrol " + String.join(" ", args) + ": " + out);
        return out;
    }

    private void startMunge() throws Exception {
        Path key = dir.resolve("munge.key");
        byte[] bytes = new byte[1024];
        new java.security.SecureRandom().nextBytes(bytes);
        Files.write(key, bytes);
        Files.setPosixFilePermissions(key, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Process p = new ProcessBuilder("munged", "--force", "--foreground", "--key-file", key.toString(),
                "--socket", dir.resolve("munge.sock").toString(), "--pid-file", dir.resolve("munged.pid").toString(),
                "--log-file", dir.resolve("munged.log").toString(), "--seed-file", dir.resolve("munge.seed").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("munged.out").toFile()).start();
        processes.add(p);
        for (int i = 0; i < 200 && !Files.exists(dir.resolve("munge.sock")); i++) {
            if (!p.isAlive()) throw new AssertionError("munged exited: " + Files.readString(dir.resolve("munged.out")));
            Thread.sleep(25); // polling for the socket the daemon creates, not a fixed wait
        }
    }

    private void writeConf(List<String> nodes) throws IOException {
        String sock = dir.resolve("munge.sock").toString();
        StringBuilder c = new StringBuilder();
        c.append("ClusterName=railyardtest\nSlurmctldHost=localhost\n")
                .append("SlurmctldPort=").append(freePort()).append('\n')
                .append("AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=").append(sock).append('\n')
                .append("SlurmUser=root\nSlurmdUser=root\n")
                .append("StateSaveLocation=").append(dir.resolve("state")).append('\n')
                .append("SlurmdSpoolDir=").append(dir.resolve("spool-%n")).append('\n')
                .append("SlurmctldPidFile=").append(dir.resolve("slurmctld.pid")).append('\n')
                .append("SlurmdPidFile=").append(dir.resolve("slurmd-%n.pid")).append('\n')
                .append("SlurmctldLogFile=").append(dir.resolve("slurmctld.log")).append('\n')
                .append("SlurmdLogFile=").append(dir.resolve("slurmd-%n.log")).append('\n')
                .append("ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nMpiDefault=none\n")
                .append("SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\nReturnToService=2\n")
                .append("JobCompType=jobcomp/none\nAccountingStorageType=accounting_storage/none\n");
        for (String n : nodes) {
            c.append("NodeName=").append(n).append(" NodeHostname=localhost Port=").append(freePort())
                    .append(" CPUs=1 RealMemory=100 State=UNKNOWN\n");
        }
        c.append("PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n");
        Files.createDirectories(dir.resolve("state"));
        Files.writeString(conf, c.toString());
    }

    private void spawn(String... argv) throws IOException {
        Path log = dir.resolve(argv[0] + "-" + processes.size() + ".out");
        processes.add(new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()).start());
    }

    /** Polls scontrol until the node answers and is no longer DOWN or UNKNOWN (slurmd registered). */
    private void awaitNodeUp(String node) throws Exception {
        String last = "";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            for (Process p : processes) {
                if (!p.isAlive()) throw new AssertionError("a Slurm daemon exited early; logs in " + dir);
            }
            try {
                last = scontrol("show", "node", "-o", node);
                if (!last.contains("State=UNKNOWN") && !last.contains("State=DOWN")) return;
            } catch (AssertionError e) {
                last = e.getMessage();
            }
            Thread.sleep(200); // polling slurmctld for the node's registration
        }
        throw new AssertionError("node " + node + " did not come up: " + last + " (logs in " + dir + ")");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        for (Process p : processes.reversed()) p.destroy();
        for (Process p : processes.reversed()) {
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
