package dev.railyard.bench.nccl;

import dev.railyard.model.NcclSizeResult;

import dev.railyard.nativelib.FakeCudaLibraries;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The regression test for the 1 KiB spikes (docs/benchmarks.md): the JDK customizes a downcall handle on its 128th
 * call, which costs 1-2.5 ms; NcclBenchmark's {@value NcclBenchmark#PATH_WARMUP_PASSES} untimed passes must put every
 * handle past that call before the sweep, so no function called between a measurement's start and end event records
 * has its 128th call there. Each C call stands for one call of its FfmCuda/FfmNccl handle (one handle per function per
 * session, and the trace starts with the session).
 */
class NcclHandleCustomizationTest {

    @TempDir
    static Path dir;

    static FakeCudaLibraries fake;

    @BeforeAll
    static void buildFakes() throws Exception {
        fake = FakeCudaLibraries.build(dir);
    }

    @AfterEach
    void resetFakes() throws Throwable {
        fake.reset();
    }

    @ParameterizedTest(name = "{0} on {1} fake GPUs, -b 8 -e {2} -f 2 -w {3} -n {4}")
    @CsvSource({"all_reduce,2,1M,1,2", "all_reduce,4,1M,5,20", "alltoall,4,1M,1,2", "reduce,2,1M,0,1",
            "sendrecv,2,1M,1,2"})
    void noHandleReachesItsCustomizingCallInsideATimedRegionOfTheSweep(String collective, int gpus, String max,
                                                                      int warmup, int iters) throws Throwable {
        fake.setDevices(gpus);
        Collective c = Collective.parse(collective);
        long maxBytes = max.endsWith("M") ? Long.parseLong(max.replace("M", "")) << 20
                : Long.parseLong(max.replace("K", "")) << 10;
        NcclBenchConfig cfg = new NcclBenchConfig(c, DataType.FLOAT, 0, "sum", 0, 8, maxBytes, 2, 0, warmup, iters,
                true, 1);
        Path trace = dir.resolve(collective + gpus + ".trace");
        Files.deleteIfExists(trace);
        FakeSweep sweep = new FakeSweep(fake, gpus, cfg);
        List<NcclSizeResult> rows;
        List<NcclRank> ranks;
        fake.trace(trace); // from the session's start: its set-up calls count towards the same handles
        try (NcclSession session = sweep.open()) {
            rows = sweep.run(session, new ArrayList<>());
            ranks = session.ranks();
        }
        fake.trace(null);
        TimedRegions regions = TimedRegions.of(Files.readAllLines(trace), addresses(ranks, true),
                addresses(ranks, false));

        int measurements = rows.size() * (c.inPlace ? 2 : 1);
        assertThat(rows).hasSizeGreaterThan(10);
        assertThat(regions.count()).isEqualTo(NcclBenchmark.PATH_WARMUP_PASSES + measurements);
        // the check can see a hit: during the warm-up passes, handles do reach their 128th call inside a region
        assertThat(regions.hits()).isNotEmpty();
        assertThat(regions.hitsFrom(NcclBenchmark.PATH_WARMUP_PASSES))
                .as("calls that were a function's 128th inside a timed region of the sweep")
                .isEmpty();
    }

    /**
     * Where the sweep is too short for any handle called in a timed loop to reach its customizing call (one 1M size
     * on 2 GPUs, -w 5 -n 20: 104 launches per handle), the benchmark skips the 160 passes, and without them no timed
     * region has a customizing call; where the bound says a handle can reach it, running without the passes does put
     * one in a timed region (so this check can fail).
     */
    @ParameterizedTest(name = "{0} on {1} fake GPUs, -b {2} -e {3} -w 5 -n 20: passes needed {4}")
    @CsvSource({"all_reduce,2,1M,1M,false", "broadcast,2,1M,1M,false", "reduce_scatter,2,1M,1M,false",
            "sendrecv,2,1M,1M,false", "all_reduce,2,64K,4M,true", "all_reduce,4,1M,1M,true"})
    void thePassesAreSkippedOnlyWhereNoHandleCanReachItsCustomizingCallInATimedLoop(String collective, int gpus,
            String min, String max, boolean needed) throws Throwable {
        fake.setDevices(gpus);
        Collective c = Collective.parse(collective);
        NcclBenchConfig cfg = new NcclBenchConfig(c, DataType.FLOAT, 0, "sum", 0, bytes(min), bytes(max), 2, 0, 5, 20,
                true, 20000);
        int sizes = new FakeSweep(fake, gpus, cfg).expectedSizes().size();
        assertThat(NcclBenchmark.busiestTimedHandleCalls(cfg, sizes, gpus, gpus) >= NcclBenchmark.CUSTOMIZING_CALL)
                .isEqualTo(needed);
        Path trace = dir.resolve(collective + gpus + min + max + ".trace");
        Files.deleteIfExists(trace);
        FakeSweep sweep = new FakeSweep(fake, gpus, cfg);
        List<NcclSizeResult> rows;
        List<NcclRank> ranks;
        fake.trace(trace);
        try (NcclSession session = sweep.open()) {
            rows = sweep.run(session, new NcclBenchmark.WarmUp(0, 0));
            ranks = session.ranks();
        }
        fake.trace(null);
        TimedRegions regions = TimedRegions.of(Files.readAllLines(trace), addresses(ranks, true),
                addresses(ranks, false));
        assertThat(regions.count()).isEqualTo(rows.size() * (c.inPlace ? 2 : 1));
        if (needed) {
            assertThat(regions.hits()).as("without the passes a handle customizes inside a timed loop").isNotEmpty();
        } else {
            assertThat(regions.hits()).isEmpty();
        }
    }

    private static long bytes(String size) {
        return size.endsWith("M") ? Long.parseLong(size.replace("M", "")) << 20 : Long.parseLong(size.replace("K", "")) << 10;
    }

    private static Set<Long> addresses(List<NcclRank> ranks, boolean start) {
        return ranks.stream().map(r -> (start ? r.start() : r.end()).nativeAddress()).collect(Collectors.toSet());
    }
}
