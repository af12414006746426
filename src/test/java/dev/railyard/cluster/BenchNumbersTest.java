package dev.railyard.cluster;

import dev.railyard.model.GpuCopyResult;
import dev.railyard.model.Measurement;
import dev.railyard.model.SizeCurve;
import dev.railyard.report.Json;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The node benchmarks' numbers as validate reads them from their steps' JSON. */
class BenchNumbersTest {

    private static StepResult exited(int code, String stdout) {
        return new StepResult("n1", List.of("bench"), StepStatus.EXITED, code, stdout, "", Duration.ofSeconds(1), "");
    }

    /** The JSON as `bench gpu --format json` writes it (the same record through the same writer). */
    @Test
    void gpuCopyRatesPerGpu() {
        GpuCopyResult g0 = new GpuCopyResult(0, "0000:18:00.0", 24.6, 25.1, 1650.0, Optional.of("Gen5 x16"), Optional.of(63.0));
        GpuCopyResult g1 = new GpuCopyResult(1, "0000:2a:00.0", 12.3, 13.0, 1640.0, Optional.empty(), Optional.empty());
        String json = Json.write(Map.of("run", new GpuCopyResult.Run(64L << 20, 5, List.of(g0, g1), new double[2][2],
                new boolean[2][2]), "findings", List.of()));

        List<Measurement> m = BenchNumbers.gpu("n1", exited(1, json));

        assertThat(m).containsExactly(
                new Measurement("GPU copy host->device", "n1 GPU0", 24.6, "GB/s"),
                new Measurement("GPU copy device->host", "n1 GPU0", 25.1, "GB/s"),
                new Measurement("GPU copy device->device", "n1 GPU0", 1650.0, "GB/s"),
                new Measurement("GPU copy host->device", "n1 GPU1", 12.3, "GB/s"),
                new Measurement("GPU copy device->host", "n1 GPU1", 13.0, "GB/s"),
                new Measurement("GPU copy device->device", "n1 GPU1", 1640.0, "GB/s"));
    }

    @Test
    void aStepThatDidNotCompleteOrPrintedNoJsonGivesNoNumber() {
        assertThat(BenchNumbers.gpu("n1", exited(3, "{\"run\":{\"gpus\":[{\"device\":0,\"h2dGBps\":1}]}}"))).isEmpty();
        assertThat(BenchNumbers.gpu("n1", exited(0, "Segmentation fault"))).isEmpty();
        // a field that is not a number is left out, never read as 0
        assertThat(BenchNumbers.gpu("n1", exited(0, "{\"run\":{\"gpus\":[{\"device\":0,\"h2dGBps\":\"NaN\",\"d2hGBps\":3.5}]}}")))
                .containsExactly(new Measurement("GPU copy device->host", "n1 GPU0", 3.5, "GB/s"));
    }

    @Test
    void storageWriteAndRead() {
        String json = "{\"file\":\"/data/.railyard-fio\",\"results\":[{\"job\":\"write\",\"megabytesPerSecond\":1890.5},"
                + "{\"job\":\"read\",\"megabytesPerSecond\":3120.0}],\"complete\":true,\"findings\":[]}";
        assertThat(BenchNumbers.storage("n1", exited(0, json))).containsExactly(
                new Measurement("storage sequential write", "n1", 1890.5, "MB/s"),
                new Measurement("storage sequential read", "n1", 3120.0, "MB/s"));
    }

    @Test
    void ncclIsBusbwAtTheLargestSize() {
        SizeCurve c = new SizeCurve("NCCL all_reduce busbw", "all_reduce over 8 GPUs on 1 node", "GB/s",
                List.of(new SizeCurve.Point(8, 0.01), new SizeCurve.Point(128L << 20, 361.2)));
        assertThat(BenchNumbers.nccl(c)).containsExactly(new Measurement("NCCL all_reduce busbw at 128 MiB",
                "all_reduce over 8 GPUs on 1 node", 361.2, "GB/s"));
        assertThat(BenchNumbers.nccl(new SizeCurve("NCCL all_reduce busbw", "x", "GB/s", List.of()))).isEmpty();
    }
}
