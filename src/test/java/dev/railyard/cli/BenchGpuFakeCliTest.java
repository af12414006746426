package dev.railyard.cli;

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
 * `railyard bench gpu` in a child JVM on the fake libcudart: it finds the runtime the way bench nccl does
 * ($RAILYARD_CUDART), and a missing driver is the same prerequisite error.
 */
class BenchGpuFakeCliTest {

    @TempDir
    static Path dir;

    static FakeCudaLibraries fake;

    @BeforeAll
    static void buildFakes() throws Exception {
        fake = FakeCudaLibraries.build(dir);
    }

    private static BenchNcclFakeCliTest.Run railyard(Map<String, String> env, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "bench", "gpu"));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        pb.environment().put("RAILYARD_CUDART", fake.cudart().toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("railyard bench gpu did not finish: " + out);
        }
        return new BenchNcclFakeCliTest.Run(p.exitValue(), out);
    }

    @Test
    void theRuntimeNamedInRailyardCudartIsTheOneMeasured() throws Exception {
        var run = railyard(Map.of("FAKE_CUDA_DEVICES", "2"), "--size", "1M", "--iters", "2");
        assertThat(run.exit()).as(run.out()).isEqualTo(ExitCodes.OK);
        // the fake's bus ids: no real libcudart on this machine could have answered them
        assertThat(run.out()).contains("0  0000:1d:00.0").contains("1  0000:1e:00.0");
    }

    @Test
    void noDriverIsAPrerequisiteThatNamesTheDriver() throws Exception {
        var run = railyard(Map.of("FAKE_CUDA_NO_DRIVER", "1"));
        assertThat(run.exit()).as(run.out()).isEqualTo(ExitCodes.PREREQUISITE);
        assertThat(run.out()).contains("the NVIDIA driver is missing or older than the CUDA runtime")
                .doesNotContain("internal error");
    }
}
