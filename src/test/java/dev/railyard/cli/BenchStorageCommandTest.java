package dev.railyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.bench.RealSamples;
import dev.railyard.model.ClusterSpec;
import dev.railyard.platform.CommandRunner;
import dev.railyard.report.Json;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class BenchStorageCommandTest {

    @TempDir
    Path dir;

    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final List<List<String>> ran = new ArrayList<>();

    /** A roomy disk and a 1 GiB node unless a test says otherwise. */
    long usable = 100L << 30;
    OptionalLong memory = OptionalLong.of(1L << 30);
    Duration progressEvery = Duration.ofMinutes(10);

    int run(CommandRunner runner, String... args) {
        ClusterSpec.Expect expect = new ClusterSpec.Expect(0.9, 2.0, 85, 1, Optional.empty(), Optional.of(300.0));
        StorageRoom room = new StorageRoom() {
            @Override
            public long usableBytes(Path d) {
                return usable;
            }

            @Override
            public OptionalLong memoryBytes() {
                return memory;
            }
        };
        BenchStorageCommand cmd = new BenchStorageCommand((argv, t, cwd, env) -> {
            ran.add(argv);
            return runner.run(argv, t, cwd, env);
        }, file -> new ClusterSpec("lab", file.toString(), List.of(), Optional.empty(), List.of(), expect), room,
                progressEvery);
        CommandLine cl = new CommandLine(cmd);
        cl.setExecutionExceptionHandler(new ExitCodes.ExceptionHandler());
        cl.setParameterExceptionHandler(new ExitCodes.ParameterHandler());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    /** fio answers every job with the real superbench fio 3.16 document (randrw, 340283 KiB/s written). */
    static CommandRunner superbench() {
        String json = RealSamples.body("fio/superbench-disk_performance-fio-3.16.json.txt");
        return (argv, t, cwd, env) -> new CommandRunner.Result(argv, 0, json, "", false, "");
    }

    @Test
    void seedJobsAreRunWriteThenReadAndJudgedAgainstTheSpec() throws Exception {
        Path spec = Files.writeString(dir.resolve("cluster.yaml"), "# loaded by the test's loader\n");
        int rc = run(superbench(), "--dir", dir.toString(), "--spec", spec.toString(), "--format", "json");
        assertThat(rc).as(out + "" + err).isZero();
        Path scratch = dir.resolve(BenchStorageCommand.SCRATCH);
        assertThat(ran).hasSize(2);
        assertThat(ran.get(0)).containsExactly("fio", "--name=write_test", "--filename=" + scratch, "--size=1G",
                "--rw=write", "--bs=1M", "--direct=1", "--numjobs=1", "--runtime=10", "--group_reporting",
                "--output-format=json");
        assertThat(ran.get(1)).contains("--name=read_test", "--rw=read");
        JsonNode report = Json.mapper().readTree(out.toString());
        // 340283 KiB/s = 348.4 MB/s = 332.3 MiB/s; 300 MB/s = 286.1 MiB/s: PASS
        assertThat(report.path("results").get(0).path("megabytesPerSecond").asDouble()).isBetween(348.4, 348.5);
        assertThat(report.path("results").get(0).path("mebibytesPerSecond").asDouble()).isBetween(332.3, 332.4);
        assertThat(report.path("findings").get(0).path("severity").asText()).isEqualTo("PASS");
        assertThat(report.path("findings").get(0).path("expected").asText()).isEqualTo(">= 286 MiB/s");
        assertThat(err.toString()).contains("Running: fio --name=write_test");
    }

    @Test
    void tooSlowIsAFailAndTheFlagBeatsTheSpec() {
        int rc = run(superbench(), "--dir", dir.toString(), "--expect-mbps", "2000", "--bs", "4K", "--no-direct");
        assertThat(rc).isEqualTo(1);
        assertThat(ran.getFirst()).contains("--bs=4K", "--direct=0");
        assertThat(out.toString()).contains("FAIL    bench.storage.seq  " + dir + " sequential write")
                .contains("observed: 332 MiB/s").contains("expected: >= 1907 MiB/s")
                .contains("FAIL    bench.storage.seq  " + dir + " sequential read").contains("observed: 333 MiB/s")
                .contains("write       348.4      332.3      85066         1558.5              -");
    }

    @Test
    void aFileThatIsNotOursIsRefusedUnlessForced() throws Exception {
        Path data = Files.writeString(dir.resolve("precious.db"), "someone's data");
        assertThat(run(superbench(), "--file", data.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("exists and fio would overwrite it").contains("--force");
        assertThat(ran).isEmpty();
        assertThat(run(superbench(), "--file", data.toString(), "--force")).isZero();
        assertThat(out.toString()).contains("No expectation");
        assertThat(data).exists(); // it existed before: left where it was
    }

    @Test
    void missingFioNamesThePackage() {
        int rc = run((argv, t, cwd, env) -> new CommandRunner.Result(argv, -1, "", "", false,
                "Cannot run program \"fio\": error=2"), "--dir", dir.toString());
        assertThat(rc).isEqualTo(3);
        assertThat(err.toString()).contains("fio is not installed").contains("apt-get install -y fio");
    }

    @Test
    void aFullDiskSaysSoAndTheScratchFileIsGone() {
        Path scratch = dir.resolve(BenchStorageCommand.SCRATCH);
        int rc = run((argv, t, cwd, env) -> {
            try {
                Files.writeString(scratch, "what fio wrote before the disk filled up");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return new CommandRunner.Result(argv, 1, "",
                    "fio: pid=0, err=28/file:filesetup.c:240, func=write, error=No space left on device\n", false, "");
        }, "--dir", dir.toString());
        assertThat(rc).isEqualTo(1);
        assertThat(ran).hasSize(1); // no read after a failed write
        assertThat(out.toString()).contains("FAIL    bench.storage.seq  " + dir + " write")
                .contains("observed: disk full: ").contains("error=No space left on device")
                .contains("fix: # free space on that disk, or run again with a smaller --size");
        assertThat(scratch).doesNotExist();
    }

    @Test
    void theMarginGrowsWithTheFileSoASmallTestFitsASmallDisk() {
        usable = 200L * 1000 * 1000; // a 200 MB filesystem
        assertThat(run(superbench(), "--dir", dir.toString(), "--size", "1M")).as(err.toString()).isZero();
        assertThat(ran.getFirst()).contains("--size=1M");
        ran.clear();
        assertThat(run(superbench(), "--dir", dir.toString(), "--size", "190M")).isEqualTo(2); // 190 + 16 > 190.7 MiB
        assertThat(err.toString()).contains("with the 16.0 MiB margin");
        assertThat(run(superbench(), "--dir", dir.toString(), "--size", "190M", "--margin", "0")).isZero();
        assertThat(ran.getFirst()).contains("--size=190M");
    }

    @Test
    void aBlockLargerThanTheFileIsAUsageErrorNotAFinding() {
        assertThat(run(superbench(), "--dir", dir.toString(), "--bs", "1G", "--size", "64M")).isEqualTo(2);
        assertThat(err.toString()).contains("--bs 1G is larger than --size 64M");
        assertThat(out.toString()).doesNotContain("FAIL");
        assertThat(ran).isEmpty();
    }

    @Test
    void aSizeTheDiskHasNoRoomForIsRefusedBeforeWriting() {
        usable = 5L << 30;
        assertThat(run(superbench(), "--dir", dir.toString(), "--size", "5G")).isEqualTo(2);
        assertThat(err.toString()).contains("not enough free space in " + dir)
                .contains("--size 5.0 GiB needs 5.3 GiB with the 256.0 MiB margin, and 5.0 GiB is free")
                .contains("hint: give --size 4876M or less");
        assertThat(ran).isEmpty();
        assertThat(dir.resolve(BenchStorageCommand.SCRATCH)).doesNotExist();
        assertThat(run(superbench(), "--dir", dir.toString(), "--size", "4G")).isZero();
    }

    @Test
    void theDefaultSizeFollowsMemoryAndFreeSpace() {
        memory = OptionalLong.of(8L << 30);
        run(superbench(), "--dir", dir.toString());
        assertThat(ran.getFirst()).contains("--size=8G"); // as large as memory
        ran.clear();
        usable = 6L << 30;
        run(superbench(), "--dir", dir.toString());
        assertThat(ran.getFirst()).contains("--size=1536M"); // a quarter of the free space
        ran.clear();
        usable = 100L << 40;
        memory = OptionalLong.of(1L << 40);
        run(superbench(), "--dir", dir.toString());
        assertThat(ran.getFirst()).contains("--size=16G"); // the cap
        ran.clear();
        usable = 70L << 20;
        assertThat(run(superbench(), "--dir", dir.toString())).isEqualTo(2); // 64 MiB does not fit with its 16 MiB margin
        assertThat(ran).isEmpty();
    }

    @Test
    void progressLinesWhileFioRuns() {
        progressEvery = Duration.ofMillis(1);
        int rc = run((argv, t, cwd, env) -> {
            // fio "runs" until the first progress line is out (bounded, so a broken ticker fails, not hangs)
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!out.toString().contains("fio " + (argv.contains("--rw=read") ? "read" : "write") + ": ")
                    && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            return superbench().run(argv, t, cwd, env);
        }, "--dir", dir.toString(), "--runtime", "7");
        assertThat(rc).isZero();
        assertThat(out.toString()).containsPattern("  fio write: \\d+ s, at most \\d+ s left")
                .containsPattern("  fio read: \\d+ s, at most \\d+ s left");
    }

    @Test
    void progressSaysHowLongIsLeftAndWhatFioDoesPastItsRuntime() {
        assertThat(FioProgress.line("write", 5, 10)).isEqualTo("  fio write: 5 s, at most 5 s left");
        assertThat(FioProgress.line("read", 15, 10))
                .isEqualTo("  fio read: 15 s, past its 10 s runtime: fio is laying out or flushing the file");
    }

    @Test
    void usageErrors() {
        assertThat(run(superbench(), "--dir", dir.resolve("nope").toString())).isEqualTo(2);
        assertThat(run(superbench(), "--dir", dir.toString(), "--size", "lots")).isEqualTo(2);
        assertThat(run(superbench(), "--dir", dir.toString(), "--file", "x")).isEqualTo(2);
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            assertThat(run(superbench(), "--dir", shm.toString())).isEqualTo(2);
            assertThat(err.toString()).contains("tmpfs, which does not support O_DIRECT").contains("--no-direct");
        }
    }

    @Test
    @Tag("tools")
    void realFioWritesThenReadsATempFile() throws Exception {
        Assumptions.assumeTrue(BenchRdmaCommand.onSystemPath("fio"), "fio not installed");
        // no O_DIRECT: the temp dir may be on a filesystem that refuses it
        int rc = run(CommandRunner.system(), "--dir", dir.toString(), "--size", "32M", "--runtime", "2",
                "--no-direct", "--expect-mbps", "1", "--format", "json");
        assertThat(rc).as(out + "" + err).isZero();
        JsonNode report = Json.mapper().readTree(out.toString());
        assertThat(report.path("results")).hasSize(2);
        assertThat(report.path("results").get(0).path("job").asText()).isEqualTo("write");
        assertThat(report.path("results").get(1).path("job").asText()).isEqualTo("read");
        for (JsonNode r : report.path("results")) assertThat(r.path("megabytesPerSecond").asDouble()).isPositive();
        assertThat(report.path("findings")).extracting(f -> f.path("severity").asText()).containsOnly("PASS");
        assertThat(dir.resolve(BenchStorageCommand.SCRATCH)).doesNotExist();
        System.out.println("bench storage (fio, 32M, no O_DIRECT, " + dir + "): " + report.path("results"));
    }
}
