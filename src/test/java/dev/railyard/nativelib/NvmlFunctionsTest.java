package dev.railyard.nativelib;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one register shape NvmlFunctions calls through: what it may carry, and what it refuses. */
class NvmlFunctionsTest {

    @TempDir
    static Path dir;

    static FakeNvmlLibrary fake;

    @BeforeAll
    static void buildFake() throws Exception {
        fake = FakeNvmlLibrary.build(dir);
    }

    @AfterAll
    static void unload() {
        if (fake != null) fake.close();
    }

    @Test
    void everySymbolCalledThroughTheShapeReturnsAnIntAndTakesAtMostFivePointersOrInts() {
        for (NvmlSymbol s : NvmlSymbol.values()) {
            if (s == NvmlSymbol.ERROR_STRING) continue; // returns a pointer: its own handle, only after a failure
            assertThat(s.descriptor.returnLayout()).as(s.cName).contains(JAVA_INT);
            assertThat(s.descriptor.argumentLayouts()).as(s.cName).hasSizeLessThanOrEqualTo(5);
            for (MemoryLayout l : s.descriptor.argumentLayouts()) {
                assertThat(l.equals(JAVA_INT) || l.equals(ADDRESS)).as(s.cName + " " + l).isTrue();
            }
        }
    }

    @Test
    void argumentsThatDoNotMatchTheCSignatureAreRefusedNotPassed() {
        try (Arena arena = Arena.ofConfined()) {
            NvmlFunctions f = NvmlFunctions.bind(SymbolLookup.libraryLookup(fake.path(), arena), false);
            assertThat(f.call(NvmlSymbol.INIT_V2)).isZero();
            MemorySegment out = arena.allocate(JAVA_INT);
            assertThat(f.call(NvmlSymbol.DEVICE_GET_COUNT_V2, out)).isZero();
            assertThat(out.get(JAVA_INT, 0)).isEqualTo(2);
            assertThatThrownBy(() -> f.call(NvmlSymbol.DEVICE_GET_COUNT_V2, 5))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("argument 0");
            assertThatThrownBy(() -> f.call(NvmlSymbol.DEVICE_GET_COUNT_V2))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("takes 1 arguments, not 0");
            MemorySegment heap = MemorySegment.ofArray(new int[1]);
            assertThatThrownBy(() -> f.call(NvmlSymbol.DEVICE_GET_COUNT_V2, heap))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(f.call(NvmlSymbol.SHUTDOWN)).isZero();
        }
    }

    @Test
    void aRehearsalChecksArgumentsButCallsNothingInTheLibrary() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            NvmlFunctions f = NvmlFunctions.bind(SymbolLookup.libraryLookup(fake.path(), arena), false);
            NvmlFunctions rehearsal = f.rehearsal();
            MemorySegment out = arena.allocate(ADDRESS);
            // before nvmlInit_v2 the library answers NVML_ERROR_UNINITIALIZED; the rehearsal never asks it
            assertThat(f.call(NvmlSymbol.DEVICE_GET_HANDLE_BY_INDEX_V2, 0, out)).isEqualTo(1);
            assertThat(rehearsal.call(NvmlSymbol.INIT_V2)).isZero();
            assertThat(fake.refcount()).isZero();
            assertThat(rehearsal.call(NvmlSymbol.DEVICE_GET_HANDLE_BY_INDEX_V2, 0, out)).isZero();
            assertThat(out.get(ADDRESS, 0).address()).isZero();
            assertThatThrownBy(() -> rehearsal.call(NvmlSymbol.DEVICE_GET_COUNT_V2, 5))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("argument 0");
        }
    }

    @Test
    void aRehearsedReadOfAGpuBuildsOneFromZerosWithoutTheLibrary() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            NvmlFunctions rehearsal = NvmlFunctions.bind(SymbolLookup.libraryLookup(fake.path(), arena), false).rehearsal();
            dev.railyard.model.Gpu gpu = new NvmlDeviceReader(rehearsal, false, new CounterRates(), new NvmlGpm(rehearsal)).read(0);
            assertThat(fake.refcount()).isZero();
            // a real call before init would have failed every reading; the rehearsal's all "succeed" with zeros
            assertThat(gpu.name()).isEqualTo(dev.railyard.model.Reading.of(""));
            assertThat(gpu.temperatureC()).isEqualTo(dev.railyard.model.Reading.of(0));
            assertThat(gpu.nvlinks().orElse(java.util.List.of())).hasSize(NvmlLayouts.NVLINK_MAX_LINKS);
        }
    }

    @Test
    void nvmlErrorStringsHandleIsBuiltBeforeAnyCallFailsAndGivesTheText() {
        try (Arena arena = Arena.ofConfined()) {
            NvmlFunctions f = NvmlFunctions.bind(SymbolLookup.libraryLookup(fake.path(), arena), false);
            assertThat(f.errorStringPrepared()).isFalse();
            f.prepareErrorString();
            assertThat(f.errorStringPrepared()).isTrue();
            assertThat(f.errorString(3)).isEqualTo("Not Supported");
        }
    }

    @Test
    void openingNvmlPreparesTheErrorStringHandleBesideInit() throws Exception {
        NvmlLoad load = FfmNvml.open(fake.path());
        assertThat(load).isInstanceOf(NvmlLoad.Ready.class);
        try (FfmNvml nvml = ((NvmlLoad.Ready) load).nvml()) {
            assertThat(nvml.functions().errorStringPrepared()).as("built by the rehearsal's thread").isTrue();
        }
    }

    @Test
    void noRehearsalOutlivesTheOpenThatStartedItWhetherInitSucceedsOrFails() throws Throwable {
        // each rehearsal starts 300 ms late, so one that open() did not wait for is still alive when it returns
        List<Thread> rehearsals = new CopyOnWriteArrayList<>();
        ThreadFactory late = r -> {
            Thread t = Thread.ofPlatform().daemon().unstarted(() -> {
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    return;
                }
                r.run();
            });
            rehearsals.add(t);
            return t;
        };
        for (int initResult : new int[] {0, 9}) {
            fake.setInitResult(initResult);
            try {
                NvmlLoad load = FfmNvml.open(fake.path(), false, late);
                assertThat(rehearsals).as("init result %d", initResult).hasSize(initResult == 0 ? 1 : 2)
                        .noneMatch(Thread::isAlive);
                if (load instanceof NvmlLoad.Ready(FfmNvml nvml)) {
                    assertThat(nvml.functions().errorStringPrepared()).isTrue();
                    nvml.close();
                }
            } finally {
                fake.setInitResult(0);
            }
        }
    }
}
