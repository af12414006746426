package dev.railyard.bench.burn;

import dev.railyard.check.BurnVerdict;
import dev.railyard.collect.KernelLogCollector;
import dev.railyard.model.BurnResult;
import dev.railyard.model.BurnResult.Precision;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.nativelib.CudaLibraries;
import dev.railyard.nativelib.FakeCudaLibraries;
import dev.railyard.nativelib.FakeNvmlLibrary;
import dev.railyard.nativelib.FfmNvml;
import dev.railyard.nativelib.NvmlLoad;
import dev.railyard.platform.Cancellation;
import dev.railyard.platform.Clock;
import dev.railyard.platform.CommandRunner;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The burn engine on the fake libcudart, libcublasLt and libnvidia-ml (src/test/c): six H100-like GPUs whose
 * multiplies really run (on the host, 128 x 128) and are timed by the fake's stream clocks, so a slow GPU is slow
 * exactly. Each fault sits on its own GPU, and each GPU is judged on its own: GPU0 healthy, GPU1 slow (80 of 100
 * TFLOP/s), GPU2 in a HW thermal slowdown, GPU3 computing one wrong element, GPU4 with an Xid logged during the run,
 * GPU5 with ECC errors that appear during the run. The Xid line is a real captured one (gpud's dmesg test data,
 * src/test/resources/kernel-log) with its PCI address moved to GPU4's.
 */
class GpuBurnFakeTest {

    @TempDir
    static Path dir;

    static FakeCudaLibraries cuda;
    static FakeNvmlLibrary nvml;
    static FfmNvml session;

    @BeforeAll
    static void build() throws Exception {
        cuda = FakeCudaLibraries.build(dir);
        nvml = FakeNvmlLibrary.build(dir, "FAKE_NVML_EIGHT_GPUS");
        session = ((NvmlLoad.Ready) FfmNvml.open(nvml.path())).nvml();
    }

    @AfterAll
    static void close() {
        session.close();
        nvml.close();
    }

    @BeforeEach
    void healthy() throws Throwable {
        cuda.reset();
        cuda.setDevices(6);
        cuda.setBus(0x1b, 0x10); // the fake NVML's buses, so CUDA device d is NVML GPU d
        cuda.setMemory(4L << 20);
        cuda.setCapability(90);
        for (int d = 0; d < 6; d++) {
            cuda.setTflops(d, 100);
            cuda.setWrongElement(d, -1);
            nvml.setClockEvents(d, 0x4); // a software power cap: how a loaded GPU runs
            nvml.setUncorrectedEcc(d, 0);
        }
    }

    private static String xidLine() throws Exception {
        String line = Files.readAllLines(Path.of("src/test/resources/kernel-log/xid-dmesg-gpud-xid48-63-94-iso.txt"))
                .stream().filter(l -> l.contains("): 48,")).findFirst().orElseThrow();
        return line.replace("PCI:0000:19:00", "PCI:0000:5b:00");
    }

    /** dmesg as the burn reads it: the first read has no Xid, every later one has GPU4's. */
    private static KernelLogCollector kernelLog(AtomicBoolean xidLogged, String xid) {
        String base = "[    1.000000] Linux version 6.8.0\n";
        return new KernelLogCollector((argv, timeout, cwd, env) -> new CommandRunner.Result(argv, 0,
                xidLogged.get() ? base + xid + "\n" : base, "", false, ""));
    }

    private static BurnOptions options(Duration duration, List<Precision> precisions) {
        return new BurnOptions(duration, precisions, List.of(), 128, 10, Duration.ofMillis(200), OptionalDouble.empty(),
                0, BurnOptions.DEFAULT_SEED);
    }

    private static Finding finding(List<Finding> findings, CheckId id, int gpu) {
        String subject = "GPU" + gpu + " (0000:" + Integer.toHexString(0x1b + 0x10 * gpu) + ":00.0)";
        return findings.stream().filter(f -> f.id().equals(id.id()) && f.subject().equals(subject)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + id.id() + " for " + subject + " in " + findings));
    }

    @Test
    void eachFaultFailsItsOwnGpuAndNoOther() throws Throwable {
        cuda.setTflops(1, 80);
        nvml.setClockEvents(2, 0x40 | 0x4);
        cuda.setWrongElement(3, 128L * 128 - 1); // outside the CPU's tile: only the other GPUs can tell
        AtomicBoolean xid = new AtomicBoolean();
        String xidLine = xidLine();
        KernelLogCollector log = kernelLog(xid, xidLine);
        GpuBurn burn = new GpuBurn(CudaLibraries.cudart(List.of(cuda.cudart().toString())),
                CudaLibraries.cublasLt(List.of(cuda.cublasLt().toString())), () -> session.gpus(false),
                session.sensors()::read, () -> log.collect(HostRoot.live()), Clock.system());
        BurnResult r = burn.run(options(Duration.ofSeconds(2), List.of(Precision.BF16)), Cancellation.create(),
                new BurnProgress() {
                    @Override
                    public void sampled(double at, java.util.Map<Integer, BurnResult.Sample> samples) {
                        // faults that appear while the load runs, after the counters were first read
                        xid.set(true);
                        try {
                            nvml.setUncorrectedEcc(5, 2);
                        } catch (Throwable t) {
                            throw new AssertionError(t);
                        }
                    }
                });
        List<Finding> f = BurnVerdict.judge(r);

        assertThat(r.complete()).isTrue();
        assertThat(r.gpus()).hasSize(6).allSatisfy(g -> {
            assertThat(g.phases()).singleElement().satisfies(p -> {
                assertThat(p.multiplies()).isPositive();
                assertThat(p.resultSlots()).isGreaterThan(10); // the ring fills the free memory, not one slot
            });
            assertThat(g.samples()).isNotEmpty();
        });
        assertThat(r.gpus().get(0).phases().getFirst().tflops()).isCloseTo(100, org.assertj.core.data.Offset.offset(3.0));
        assertThat(r.gpus().get(1).phases().getFirst().tflops()).isCloseTo(80, org.assertj.core.data.Offset.offset(3.0));

        for (CheckId id : List.of(CheckId.BURN_SPEED, CheckId.BURN_THROTTLE, CheckId.BURN_ERRORS, CheckId.BURN_CHECKSUM)) {
            assertThat(finding(f, id, 0).severity()).as(id + " on the healthy GPU0").isEqualTo(Severity.PASS);
        }
        assertThat(finding(f, CheckId.BURN_SPEED, 1).severity()).isEqualTo(Severity.FAIL);
        assertThat(finding(f, CheckId.BURN_SPEED, 1).observed())
                .matches("BF16 (79|80|81)\\.\\d TFLOP/s \\(\\d\\d\\.\\d % below the best, \\d+\\.\\d\\)");
        assertThat(finding(f, CheckId.BURN_THROTTLE, 1).severity()).isEqualTo(Severity.PASS);
        assertThat(finding(f, CheckId.BURN_THROTTLE, 2).severity()).isEqualTo(Severity.FAIL);
        assertThat(finding(f, CheckId.BURN_THROTTLE, 2).observed()).contains("HW_THERMAL_SLOWDOWN");
        assertThat(finding(f, CheckId.BURN_SPEED, 2).severity()).isEqualTo(Severity.PASS);
        assertThat(finding(f, CheckId.BURN_CHECKSUM, 3).severity()).isEqualTo(Severity.FAIL);
        assertThat(finding(f, CheckId.BURN_CHECKSUM, 3).observed()).contains("shared by 1 of 6 GPUs");
        assertThat(finding(f, CheckId.BURN_CHECKSUM, 2).severity()).isEqualTo(Severity.PASS);
        assertThat(finding(f, CheckId.BURN_ERRORS, 4).severity()).isEqualTo(Severity.FAIL);
        assertThat(finding(f, CheckId.BURN_ERRORS, 4).observed()).contains("Xid 48");
        assertThat(finding(f, CheckId.BURN_ERRORS, 5).severity()).isEqualTo(Severity.FAIL);
        assertThat(finding(f, CheckId.BURN_ERRORS, 5).observed()).isEqualTo("2 new uncorrected ECC errors");
        assertThat(finding(f, CheckId.BURN_ERRORS, 3).severity()).isEqualTo(Severity.PASS);

        assertThat(BurnVerdict.perGpu(r, f)).extracting(BurnVerdict.GpuVerdict::severity).containsExactly(
                Severity.PASS, Severity.FAIL, Severity.FAIL, Severity.FAIL, Severity.FAIL, Severity.FAIL);
        // six GPUs at the fake's 71.234 W; plan power with the fake's 700 W enforced limit
        assertThat(r.power().peakWatts().optional().orElseThrow()).isCloseTo(6 * 71.234, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.power().planWatts()).isEqualTo(Reading.of(4200.0));
    }

    @Test
    void aWrongElementInsideTheTileIsCaughtByTheCpuEvenOnOneGpu() throws Throwable {
        cuda.setDevices(1);
        cuda.setWrongElement(0, 5 + 128L * 7); // D(5, 7)
        GpuBurn burn = new GpuBurn(CudaLibraries.cudart(List.of(cuda.cudart().toString())),
                CudaLibraries.cublasLt(List.of(cuda.cublasLt().toString())), () -> session.gpus(false),
                session.sensors()::read, () -> Reading.of(List.of()), Clock.system());
        BurnResult r = burn.run(options(Duration.ofSeconds(1), List.of(Precision.FP8)), Cancellation.create(),
                BurnProgress.NONE);
        Finding checksum = finding(BurnVerdict.judge(r), CheckId.BURN_CHECKSUM, 0);
        assertThat(checksum.severity()).as(checksum.toString()).isEqualTo(Severity.FAIL);
        assertThat(checksum.observed()).startsWith("FP8: 1 of 4096 elements of the 64x64 tile differ from the CPU's");
    }

    @Test
    void aStopKeepsWhatWasMeasured() throws Throwable {
        cuda.setDevices(2);
        Cancellation stop = Cancellation.create();
        GpuBurn burn = new GpuBurn(CudaLibraries.cudart(List.of(cuda.cudart().toString())),
                CudaLibraries.cublasLt(List.of(cuda.cublasLt().toString())), () -> session.gpus(false),
                session.sensors()::read, () -> Reading.of(List.of()), Clock.system());
        BurnResult r = burn.run(options(Duration.ofMinutes(10), List.of()), stop, new BurnProgress() {
            @Override
            public void sampled(double at, java.util.Map<Integer, BurnResult.Sample> samples) {
                stop.cancel("SIGINT");
            }
        });
        assertThat(r.complete()).isFalse();
        assertThat(r.stopped()).isEqualTo("stopped by SIGINT");
        assertThat(r.ran()).isLessThan(Duration.ofMinutes(1));
        // compute capability 9.0: FP8 first; the stop came in it, so BF16 never ran
        assertThat(r.gpus()).allSatisfy(g -> assertThat(g.phases()).singleElement().satisfies(p -> {
            assertThat(p.precision()).isEqualTo(Precision.FP8);
            assertThat(p.multiplies()).isPositive();
            assertThat(p.checksum().isPresent()).isTrue();
        }));
        assertThat(BurnVerdict.judge(r)).filteredOn(x -> x.severity() == Severity.FAIL).isEmpty();
    }

    /**
     * Each one-second sample reads six fields of each loaded GPU (SM and memory clock, power, temperature, memory
     * temperature, clock-event reasons), one NVML call each; the full read of every field of every GPU runs once
     * before the load and once after it, never per sample. Counted by the fake NVML itself.
     */
    @Test
    void aSampleMakesSixNvmlCallsPerGpuAndNeverTheFullRead() throws Throwable {
        cuda.setDevices(2);
        nvml.resetCalls();
        session.gpus(false);
        long fullRead = nvml.calls();
        long utilisationPerFullRead = nvml.calls("nvmlDeviceGetUtilizationRates");
        assertThat(utilisationPerFullRead).as("the full read asks every listed GPU for its utilisation").isEqualTo(8);

        nvml.resetCalls();
        GpuBurn burn = new GpuBurn(CudaLibraries.cudart(List.of(cuda.cudart().toString())),
                CudaLibraries.cublasLt(List.of(cuda.cublasLt().toString())), () -> session.gpus(false),
                session.sensors()::read, () -> Reading.of(List.of()), Clock.system());
        BurnResult r = burn.run(options(Duration.ofSeconds(1), List.of(Precision.BF16)), Cancellation.create(),
                BurnProgress.NONE);
        long samples = r.sampler().samples();
        assertThat(samples).as("a sample each 200 ms of a 1 s run").isGreaterThanOrEqualTo(3);
        assertThat(r.gpus()).allSatisfy(g -> assertThat(g.samples()).hasSize((int) samples).allSatisfy(s -> {
            assertThat(s.smClockMhz().isPresent()).isTrue();
            assertThat(s.powerWatts()).isEqualTo(Reading.of(71.234));
            assertThat(s.memoryTemperatureC().isPresent()).isTrue();
            assertThat(s.clockEvents().isPresent()).isTrue();
        }));
        assertThat(nvml.calls("nvmlDeviceGetUtilizationRates")).as("full reads: the one before and the one after")
                .isEqualTo(2 * utilisationPerFullRead);
        // the handles of the node's eight GPUs are found once: the count, then a handle and a PCI address each
        long handles = 1 + 2 * 8;
        assertThat(nvml.calls() - 2 * fullRead - handles).as("NVML calls of %d samples of 2 GPUs", samples)
                .isEqualTo(6 * 2 * samples);
    }
}
