package dev.railyard.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ctrl-C (SIGINT to the process group, as a terminal sends it) and SIGTERM to commands in their own JVM: each ends
 * promptly with a code from docs/exit-codes.md, never the 130 or 143 of a JVM ended by a signal. A server or daemon the
 * user stops ends 0; a benchmark cut short prints what it measured and ends 1, leaving no scratch file.
 */
class InterruptExitCodeTest {

    @TempDir
    Path dir;

    @BeforeEach
    void needsSetsid() {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")), "needs setsid (util-linux)");
    }

    /** The command in its own JVM and process group; its output is read until it contains {@code ready} (null: at once). */
    private Process start(Map<String, String> env, String ready, String... args) throws IOException {
        List<String> argv = new ArrayList<>(List.of("/usr/bin/setsid",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv).redirectOutput(dir.resolve("stdout.txt").toFile())
                .redirectError(dir.resolve("stderr.txt").toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && p.isAlive()) {
            if (ready == null) return p;
            if (Files.readString(dir.resolve("stderr.txt")).contains(ready)
                    || Files.readString(dir.resolve("stdout.txt")).contains(ready)) return p;
            sleepQuietly();
        }
        p.destroyForcibly();
        throw new AssertionError("never printed '" + ready + "': " + Files.readString(dir.resolve("stderr.txt")));
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** kill -SIGNAL to the process group (Ctrl-C) or to the JVM alone; returns the exit code, within 20 s. */
    private static int signal(Process p, String signal, boolean group) throws Exception {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, "--", (group ? "-" : "") + p.pid()).inheritIO().start();
            assertThat(kill.waitFor()).isZero();
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("ended within 20 s of SIG" + signal).isTrue();
            return p.exitValue();
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void aTcpServerStoppedByCtrlCEndsZero() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Process server = start(Map.of(), "listening on", "bench", "tcp", "server", "--bind", "127.0.0.1", "--port", "" + port);
        assertThat(signal(server, "INT", true)).as(Files.readString(dir.resolve("stderr.txt"))).isZero();
    }

    @Test
    void anAgentStoppedBySigtermEndsZero() throws Exception {
        Process agent = start(Map.of(), "serving http://", "agent", "--listen", "127.0.0.1:0", "--interval", "200ms");
        assertThat(signal(agent, "TERM", false)).as(Files.readString(dir.resolve("stderr.txt"))).isZero();
    }

    @Test
    void benchStorageCutShortPrintsWhatFioMeasuredAndEndsOne() throws Exception {
        // a stand-in fio: the write job runs until a signal, then prints its JSON as fio does and exits; the read job
        // must not start after the signal
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path data = Files.createDirectories(dir.resolve("data"));
        Path fio = bin.resolve("fio");
        Files.writeString(fio, """
                #!/bin/bash
                for a in "$@"; do case "$a" in --filename=*) f="${a#--filename=}";; --rw=*) rw="${a#--rw=}";; esac; done
                echo "$rw" >> "%s"
                echo written > "$f"
                report() {
                  echo '{"fio version":"fio-3.33","jobs":[{"jobname":"'$rw'_test","error":0,"read":{"bw_bytes":0,"iops":0},'
                  echo '"write":{"bw_bytes":2000000000,"iops":1907.3,"clat_ns":{"mean":500000.0,"percentile":{"99.000000":700000}}}}]}'
                  exit 0
                }
                trap report INT TERM
                echo "fio $rw started" >&2
                while :; do sleep 0.05; done
                """.formatted(dir.resolve("jobs.txt")));
        Files.setPosixFilePermissions(fio, PosixFilePermissions.fromString("rwxr-xr-x"));
        Process run = start(Map.of("PATH", bin + ":" + System.getenv("PATH")), "Running: fio",
                "bench", "storage", "--dir", data.toString(), "--size", "64M", "--no-direct", "--runtime", "30");
        while (!Files.exists(dir.resolve("jobs.txt"))) sleepQuietly();
        int code = signal(run, "INT", true);
        String out = Files.readString(dir.resolve("stdout.txt"));
        assertThat(code).as(out + Files.readString(dir.resolve("stderr.txt"))).isEqualTo(ExitCodes.FAIL_FINDING);
        assertThat(out).contains("write ").contains("run stopped early: interrupted");
        assertThat(Files.readAllLines(dir.resolve("jobs.txt"))).as("fio jobs started").containsExactly("write");
        assertThat(data.resolve(BenchStorageCommand.SCRATCH)).doesNotExist();
    }

    @Test
    void captureCutShortLeavesNoArchiveAndEndsOne() throws Exception {
        // a stand-in tar that has written part of the archive when the signal comes
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path tar = bin.resolve("tar");
        Files.writeString(tar, """
                #!/bin/bash
                echo "half an archive" > "$2"
                while :; do sleep 0.05; done
                """);
        Files.setPosixFilePermissions(tar, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path out = Files.createDirectories(dir.resolve("out"));
        Process run = start(Map.of("PATH", bin + ":" + System.getenv("PATH")), null,
                "capture", "--out", out.resolve("node1.tgz").toString());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (isEmpty(out) && System.nanoTime() < deadline) sleepQuietly();
        assertThat(isEmpty(out)).as("tar started writing").isFalse();
        int code = signal(run, "INT", true);
        String err = Files.readString(dir.resolve("stderr.txt"));
        assertThat(code).as(err).isEqualTo(ExitCodes.FAIL_FINDING);
        assertThat(err).contains("railyard: interrupted").doesNotContain("within 2 minutes").doesNotContain("Exception");
        try (var left = Files.list(out)) {
            assertThat(left.toList()).as("nothing half-written under --out's directory").isEmpty();
        }
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }
}
