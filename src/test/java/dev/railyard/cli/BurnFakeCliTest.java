package dev.railyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.nativelib.FakeCudaLibraries;
import dev.railyard.nativelib.FakeNvmlLibrary;
import dev.railyard.report.Json;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `railyard burn` in a child JVM on the fake libcudart, libcublasLt and libnvidia-ml (two H100-like GPUs lined up by
 * PCI bus): the libraries it loads are the ones named in RAILYARD_CUDART, RAILYARD_CUBLASLT and RAILYARD_NVML, the
 * JSON carries each GPU's verdict, and the exit code follows docs/exit-codes.md.
 */
class BurnFakeCliTest {

    @TempDir
    static Path dir;

    static FakeCudaLibraries cuda;
    static FakeNvmlLibrary nvml;

    @BeforeAll
    static void buildFakes() throws Exception {
        cuda = FakeCudaLibraries.build(dir);
        nvml = FakeNvmlLibrary.build(dir, "FAKE_NVML_EIGHT_GPUS");
    }

    private static BenchNcclFakeCliTest.Run burn(Map<String, String> env, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "burn"));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv);
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> e = new HashMap<>(Map.of("RAILYARD_CUDART", cuda.cudart().toString(),
                "RAILYARD_CUBLASLT", cuda.cublasLt().toString(), "RAILYARD_NVML", nvml.path().toString(),
                "FAKE_CUDA_DEVICES", "2", "FAKE_CUDA_BUS_FIRST", "1b", "FAKE_CUDA_BUS_STRIDE", "10",
                "FAKE_CUDA_MEM_BYTES", String.valueOf(8L << 20)));
        e.putAll(env);
        pb.environment().putAll(e);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("railyard burn did not finish: " + out);
        }
        return new BenchNcclFakeCliTest.Run(p.exitValue(), out);
    }

    @Test
    void aThrottlingGpuFailsTheRunAndTheJsonNamesIt() throws Exception {
        var run = burn(Map.of("FAKE_NVML_CLOCK_EVENTS", "1:44"), "--duration", "2s", "--matrix", "256",
                "--precision", "bf16", "--format", "json");
        assertThat(run.exit()).as(run.out()).isEqualTo(ExitCodes.FAIL_FINDING);
        JsonNode doc = Json.mapper().readTree(run.out());
        assertThat(doc.path("gpus").get(0).path("severity").asText()).isIn("PASS", "UNKNOWN");
        assertThat(doc.path("gpus").get(1).path("severity").asText()).isEqualTo("FAIL");
        assertThat(doc.path("gpus").get(1).path("failing").toString()).isEqualTo("[\"burn.throttle\"]");
        JsonNode gpu0 = doc.path("burn").path("gpus").get(0);
        assertThat(gpu0.path("pciAddress").asText()).isEqualTo("0000:1b:00.0");
        assertThat(gpu0.path("phases").get(0).path("precision").asText()).isEqualTo("BF16");
        assertThat(gpu0.path("phases").get(0).path("multiplies").asLong()).isPositive();
        assertThat(doc.path("burn").path("power").path("planWatts").path("value").asDouble()).isEqualTo(1400.0);
    }

    @Test
    void fp8OnAGpuWithoutItIsAUsageError() throws Exception {
        var run = burn(Map.of("FAKE_CUDA_CC", "80"), "--duration", "1s", "--precision", "fp8");
        assertThat(run.exit()).as(run.out()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void theTextSummaryHasARowPerGpuAndTheFindings() throws Exception {
        var run = burn(Map.of(), "--duration", "1s", "--matrix", "256", "--precision", "fp32");
        assertThat(run.out()).contains("# railyard burn: 2 GPUs, 256 x 256 matrix multiplies")
                .containsPattern("\\n +0  0000:1b:00.0  FP32 +[0-9.]+ ")
                .containsPattern("\\n +1  0000:2b:00.0  FP32 +[0-9.]+ ")
                .contains("node: peak 142 W of GPUs").contains("burn.checksum");
    }
}
