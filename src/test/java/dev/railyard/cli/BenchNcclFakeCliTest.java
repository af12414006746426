package dev.railyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.railyard.nativelib.FakeCudaLibraries;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `railyard bench nccl` end to end in a child JVM whose environment names the fake libraries (RAILYARD_CUDART,
 * RAILYARD_NCCL; an environment cannot be set in this JVM) and sets the fakes' switches.
 */
class BenchNcclFakeCliTest {

    @TempDir
    static Path dir;

    static FakeCudaLibraries fake;

    @BeforeAll
    static void buildFakes() throws Exception {
        fake = FakeCudaLibraries.build(dir);
    }

    record Run(int exit, String out) {}

    private static Run railyard(Map<String, String> env, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "bench", "nccl"));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        pb.environment().put("RAILYARD_CUDART", fake.cudart().toString());
        pb.environment().put("RAILYARD_NCCL", fake.nccl().toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("railyard bench nccl did not finish: " + out);
        }
        return new Run(p.exitValue(), out);
    }

    /** --timings: one run shows where a bench nccl's time goes, on standard error after the table. */
    @Test
    void timingsNameEveryPhaseOfTheRun() throws Exception {
        Run run = railyard(Map.of("FAKE_CUDA_DEVICES", "2"), "all_reduce", "-g", "2", "-b", "8", "-e", "64", "-w", "1",
                "-n", "2", "--jit-warmup", "300", "--timings");
        assertThat(run.exit()).as(run.out()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).contains("JVM start to main", "CLI build", "CUDA runtime and NCCL libraries load",
                "CUDA context and free memory of each GPU", "NCCL communicators (ncclCommInitAll)",
                "buffers, streams, events (cudaMalloc)", "JIT warm-up: 300 launches of the smallest size",
                "warm-up iterations (-w), all sizes", "timed iterations (-n, between CUDA events), all sizes",
                "data check (-c", "output (table or JSON", "tear-down (ncclCommDestroy, cudaFree)", "total");
        assertThat(run.out()).contains("JIT warm-up: 160 passes through the measurement");
    }

    @Test
    void jsonOfAnAllGatherOn4FakeGpus() throws Exception {
        Run run = railyard(Map.of("FAKE_CUDA_DEVICES", "4"), "all_gather", "-g", "4", "-b", "32", "-e", "4K", "-f",
                "4", "-w", "1", "-n", "2", "--jit-warmup", "1", "--format", "json");
        assertThat(run.exit()).as(run.out()).isEqualTo(ExitCodes.OK);
        JsonNode json = new ObjectMapper().readTree(run.out());
        assertThat(json.get("collective").asText()).isEqualTo("all_gather");
        assertThat(json.get("nranks").asInt()).isEqualTo(4);
        assertThat(json.get("ncclVersion").asText()).isEqualTo("2.28.7");
        assertThat(json.get("complete").asBoolean()).isTrue();
        List<String> devices = new ArrayList<>();
        json.get("devices").forEach(d -> devices.add(d.asText()));
        assertThat(devices).containsExactly("0 [0000:1d:00.0]", "1 [0000:1e:00.0]", "2 [0000:1f:00.0]",
                "3 [0000:20:00.0]");
        List<Long> sizes = new ArrayList<>();
        json.get("sizes").forEach(s -> {
            sizes.add(s.get("bytes").asLong());
            assertThat(s.get("outOfPlace").get("wrong").asLong()).isZero();
            assertThat(s.get("inPlace").get("wrong").asLong()).isZero();
        });
        // 32 B over 4 ranks is 2 floats a rank, under nccl-tests' 16-byte chunk, so no row; then 128, 512, 2048
        assertThat(sizes).containsExactly(128L, 512L, 2048L);
    }

    @Test
    void aWrongElementFailsTheRunInTheTable() throws Exception {
        Run run = railyard(Map.of("FAKE_NCCL_WRONG", "ncclAllReduce"), "all_reduce", "-g", "2", "-b", "8", "-e", "32",
                "-f", "2", "-w", "1", "-n", "2", "--jit-warmup", "1");
        assertThat(run.exit()).as(run.out()).isEqualTo(ExitCodes.FAIL_FINDING);
        assertThat(run.out()).contains("# Out of bounds values : 6 FAILED")
                .contains("#  Rank  1 device 1 [0000:1e:00.0]");
        // 8 B = 2 floats: 10 µs + 2 ns a launch, one wrong element in and out of place
        assertThat(run.out()).containsPattern("\\n\\s+8\\s+2\\s+float\\s+sum\\s+-1\\s+10\\.00\\s+0\\.00\\s+0\\.00\\s+1"
                + "\\s+10\\.00\\s+0\\.00\\s+0\\.00\\s+1\\n");
    }

    @Test
    void aLibraryFileThatIsNotThereIsAPrerequisiteError() throws Exception {
        Run run = railyard(Map.of("RAILYARD_NCCL", dir.resolve("nope/libnccl.so.2").toString()), "-b", "8", "-e", "8");
        assertThat(run.exit()).as(run.out()).isEqualTo(ExitCodes.PREREQUISITE);
        assertThat(run.out()).contains("NCCL (libnccl.so.2) could not be loaded").contains("nope/libnccl.so.2");
    }

    @Test
    void noDriverIsAPrerequisiteThatNamesTheDriverNotAnInternalError() throws Exception {
        Run run = railyard(Map.of("FAKE_CUDA_NO_DRIVER", "1"), "-b", "8", "-e", "8");
        assertThat(run.exit()).as(run.out()).isEqualTo(ExitCodes.PREREQUISITE);
        assertThat(run.out()).contains("the NVIDIA driver is missing or older than the CUDA runtime")
                .contains("CUDA driver version is insufficient").contains("hint: install or update the NVIDIA driver")
                .doesNotContain("internal error").doesNotContain("Exception");
    }

    @Test
    void aSizeLargerThanTheGpuIsRefusedBeforeAnythingIsAllocated() throws Exception {
        Path trace = dir.resolve("oversize.trace");
        Run run = railyard(Map.of("FAKE_CUDA_MEM_BYTES", String.valueOf(8L << 30), "FAKE_CUDA_TRACE", trace.toString()),
                "-b", "300G", "-e", "300G", "-g", "2");
        assertThat(run.exit()).as(run.out()).isEqualTo(ExitCodes.USAGE);
        // 8 GiB free, 1 GiB kept for NCCL: two buffers of 3.5 GiB - 64 B each
        assertThat(run.out()).contains("which has 8 GiB free").contains("the largest size that fits is -e 3G")
                .doesNotContain("Exception");
        assertThat(java.nio.file.Files.readAllLines(trace)).contains("cudaMemGetInfo")
                .doesNotContain("cudaMalloc", "ncclCommInitAll");
    }

    @Test
    void theSpecsBusbwFloorJudgesTheLargestSize() throws Exception {
        Path spec = dir.resolve("cluster.yaml");
        java.nio.file.Files.writeString(spec, """
                cluster: fake
                nodes: [{name: n1, address: 10.0.0.1}]
                expect: {nccl_busbw_gbytes_per_s: 1000}
                """);
        Run run = railyard(Map.of(), "-g", "2", "-b", "8", "-e", "32", "-w", "1", "-n", "2", "--jit-warmup", "1",
                "--spec", spec.toString());
        assertThat(run.exit()).as(run.out()).isEqualTo(ExitCodes.FAIL_FINDING);
        assertThat(run.out()).contains("FAIL    bench.nccl.busbw  2 GPUs of this node")
                .contains("expected: >= 1000 GB/s busbw at the largest size");
        Run passing = railyard(Map.of(), "-g", "2", "-b", "8", "-e", "32", "-w", "1", "-n", "2", "--jit-warmup", "1",
                "--expect-busbw", "0.000001");
        assertThat(passing.exit()).as(passing.out()).isEqualTo(ExitCodes.OK);
        assertThat(passing.out()).contains("PASS    bench.nccl.busbw");
    }
}
