package dev.railyard.bench.nccl;

import dev.railyard.model.NcclBenchResult;
import dev.railyard.model.NcclSizeResult;

import dev.railyard.nativelib.FakeCudaLibraries;
import dev.railyard.nativelib.NativeCallException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The bench nccl sweep against src/test/c/fake_cudart.c and fake_nccl.c: the fakes compute the real results of every
 * collective over host memory and advance a stream's clock by 10 000 + count ns per launch, so sizes, times, #wrong
 * and the order of calls are all known.
 */
class NcclBenchmarkFakeTest {

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

    static Stream<Arguments> collectivesOn2And4Gpus() {
        List<Arguments> args = new ArrayList<>();
        for (int gpus : new int[]{2, 4}) for (Collective c : Collective.values()) args.add(Arguments.of(c, gpus));
        return args.stream();
    }

    /** Launches per rank and their element count per timed iteration, which the fake clock charges 10 µs + 1 ns each. */
    private static double expectedTimeUs(Collective c, long param, int gpus) {
        int calls = switch (c) {
            case ALLTOALL -> 2 * gpus;
            case SENDRECV -> 2;
            default -> 1;
        };
        return calls * (10_000 + param) / 1e3;
    }

    /** The per-call count NCCL got: the row shows the larger of the send and receive counts. */
    private static long paramOf(Collective c, NcclSizeResult row, int gpus) {
        return switch (c) {
            case ALL_GATHER, REDUCE_SCATTER, ALLTOALL -> row.count() / gpus;
            default -> row.count();
        };
    }

    @ParameterizedTest(name = "{0} on {1} fake GPUs")
    @MethodSource("collectivesOn2And4Gpus")
    void everySizeOfTheSweepVerifiesInAndOutOfPlace(Collective c, int gpus) throws Throwable {
        fake.setDevices(gpus);
        FakeSweep sweep = new FakeSweep(fake, gpus, FakeSweep.config(c));
        FakeSweep.Outcome out = sweep.run();

        assertThat(out.rows()).extracting(NcclSizeResult::bytes).containsExactlyElementsOf(sweep.expectedSizes());
        assertThat(out.rows()).hasSizeGreaterThanOrEqualTo(4).isEqualTo(out.streamed());
        for (NcclSizeResult row : out.rows()) {
            long param = paramOf(c, row, gpus);
            assertThat(row.outOfPlace().wrong()).as("#wrong out of place at %d B", row.bytes()).isZero();
            assertThat(row.outOfPlace().timeUs()).isCloseTo(expectedTimeUs(c, param, gpus), within(1e-3));
            if (c.inPlace) {
                assertThat(row.inPlace()).hasValueSatisfying(t -> {
                    assertThat(t.wrong()).as("#wrong in place at %d B", row.bytes()).isZero();
                    assertThat(t.timeUs()).isCloseTo(expectedTimeUs(c, param, gpus), within(1e-3));
                });
            } else {
                assertThat(row.inPlace()).isEmpty();
            }
            assertThat(row.root()).isEqualTo(c == Collective.BROADCAST || c == Collective.REDUCE ? 0 : -1);
        }
    }

    @Test
    void allReduceOn4GpusShowsEachPowerOf4AndItsBandwidth() throws Throwable {
        fake.setDevices(4);
        List<NcclSizeResult> rows = new FakeSweep(fake, 4, FakeSweep.config(Collective.ALL_REDUCE)).run().rows();
        assertThat(rows).extracting(NcclSizeResult::bytes)
                .containsExactly(8L, 32L, 128L, 512L, 2048L, 8192L, 32768L);
        NcclSizeResult last = rows.getLast();
        assertThat(last.count()).isEqualTo(8192);
        // 10 µs + 8192 ns per launch; algbw = 32768 B / 18.192 µs; busbw x 2(n-1)/n = 1.5
        assertThat(last.outOfPlace().timeUs()).isCloseTo(18.192, within(1e-3));
        assertThat(last.outOfPlace().algbwGBps()).isCloseTo(32768 / 18.192e-6 / 1e9, within(1e-3));
        assertThat(last.outOfPlace().busbwGBps()).isCloseTo(1.5 * 32768 / 18.192e-6 / 1e9, within(1e-3));
    }

    static Stream<Arguments> wrongElementPerCollective() {
        Map<Collective, String> fn = Map.of(Collective.ALL_REDUCE, "ncclAllReduce", Collective.ALL_GATHER,
                "ncclAllGather", Collective.REDUCE_SCATTER, "ncclReduceScatter", Collective.BROADCAST, "ncclBroadcast",
                Collective.REDUCE, "ncclReduce", Collective.ALLTOALL, "ncclRecv", Collective.SENDRECV, "ncclRecv");
        return collectivesOn2And4Gpus().map(a -> Arguments.of(a.get()[0], a.get()[1], fn.get(a.get()[0])));
    }

    @ParameterizedTest(name = "{0} on {1} fake GPUs, {2} writes one wrong element")
    @MethodSource("wrongElementPerCollective")
    void theCheckCountsTheOneWrongElement(Collective c, int gpus, String fn) throws Throwable {
        fake.setDevices(gpus);
        fake.setWrong(fn);
        List<NcclSizeResult> rows = new FakeSweep(fake, gpus, FakeSweep.config(c)).run().rows();
        assertThat(rows).isNotEmpty().allSatisfy(row -> {
            assertThat(row.outOfPlace().wrong()).isEqualTo(1);
            row.inPlace().ifPresent(t -> assertThat(t.wrong()).isEqualTo(1));
        });
        NcclBenchResult result = new NcclBenchResult(c.label, gpus, List.of(), "2.28.7", rows, 0, true);
        assertThat(result.wrongTotal()).isEqualTo(rows.size() * (c.inPlace ? 2L : 1L));
    }

    @ParameterizedTest(name = "all_reduce {0} {1} on 4 fake GPUs")
    @CsvSource({"float,sum", "half,sum", "bfloat16,sum", "double,sum", "int8,sum", "uint8,sum", "int32,prod",
            "uint32,max", "int64,min", "uint64,sum", "float,prod", "half,max", "bfloat16,min"})
    void everyDataTypeAndOpReducesExactly(String type, String op) throws Throwable {
        fake.setDevices(4);
        NcclBenchConfig cfg = FakeSweep.config(Collective.ALL_REDUCE, DataType.parse(type), op, 8, 4096, 8);
        List<NcclSizeResult> rows = new FakeSweep(fake, 4, cfg).run().rows();
        assertThat(rows).extracting(NcclSizeResult::bytes).containsExactly(8L, 64L, 512L, 4096L);
        assertThat(rows).allSatisfy(row -> {
            assertThat(row.outOfPlace().wrong()).isZero();
            assertThat(row.inPlace().orElseThrow().wrong()).isZero();
        });
    }

    @Test
    void aSingleStepSweepMeasuresOneSize() throws Throwable {
        NcclBenchConfig cfg = FakeSweep.config(Collective.ALL_REDUCE, DataType.FLOAT, "sum", 1024, 1 << 20, 1);
        List<NcclSizeResult> rows = new FakeSweep(fake, 2, cfg).run().rows();
        assertThat(rows).extracting(NcclSizeResult::bytes).containsExactly(1024L);
    }

    @Test
    void aFailureMidSweepLeavesTheRowsAlreadyHandedOn() throws Throwable {
        Path trace = dir.resolve("count.trace");
        FakeSweep sweep = new FakeSweep(fake, 2, FakeSweep.config(Collective.ALL_REDUCE));
        fake.trace(trace);
        int total = sweep.run().rows().size();
        fake.trace(null);
        long launches = Files.readAllLines(trace).stream().filter("ncclAllReduce"::equals).count();
        // per size: (1 warm-up + 2 timed + 1 checked) launches x out of place and in place x 2 ranks
        long perSize = (1 + 2 + 1) * 2 * 2;
        fake.failAfter(launches - 2 * perSize);

        List<NcclSizeResult> streamed = new ArrayList<>();
        try (NcclSession session = sweep.open()) {
            assertThatThrownBy(() -> sweep.run(session, streamed))
                    .isInstanceOf(NativeCallException.class)
                    .hasMessageContaining("ncclAllReduce failed: unhandled cuda error");
        }
        assertThat(streamed).hasSize(total - 2);
        assertThat(streamed).allSatisfy(row -> assertThat(row.outOfPlace().wrong()).isZero());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Collective.class, names = {"ALL_REDUCE", "BROADCAST"})
    void oneGpuRunsUngrouped(Collective c) throws Throwable {
        List<NcclSizeResult> rows = new FakeSweep(fake, 1, FakeSweep.config(c)).run().rows();
        assertThat(rows).hasSize(7).allSatisfy(row -> assertThat(row.outOfPlace().wrong()).isZero());
        assertThat(rows.getFirst().outOfPlace().busbwGBps()).isEqualTo(c == Collective.ALL_REDUCE ? 0.0
                : rows.getFirst().outOfPlace().algbwGBps());
    }
}
