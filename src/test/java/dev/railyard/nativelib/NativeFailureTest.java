package dev.railyard.nativelib;

import dev.railyard.model.RailyardException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A failed CUDA/NCCL call becomes an error the user can act on, with exit 2 or 3: never an internal error. */
class NativeFailureTest {

    private static RailyardException cuda(int code, String text) {
        return NativeFailure.explain(new NativeCallException(NativeCallException.Library.CUDA, "cudaMalloc(1024)", code, text));
    }

    @Test
    void aMissingOrOldDriverIsAPrerequisiteNamingTheDriver() {
        RailyardException e = cuda(35, "CUDA driver version is insufficient for CUDA runtime version");
        assertThat(e.exitCode()).isEqualTo(3);
        assertThat(e.getMessage()).contains("NVIDIA driver").contains("cudaMalloc(1024)");
        assertThat(e.hint()).contains("nvidia-smi");
        assertThat(cuda(100, "no CUDA-capable device is detected").exitCode()).isEqualTo(3);
    }

    @Test
    void runningOutOfGpuMemoryIsTheSizeTheUserChose() {
        RailyardException e = cuda(2, "out of memory");
        assertThat(e.exitCode()).isEqualTo(2);
        assertThat(e.getMessage()).contains("ran out of memory");
        assertThat(e.hint()).contains("smaller size");
    }

    @Test
    void otherFailuresNameTheCallAndWhereToLook() {
        RailyardException e = NativeFailure.explain(new NativeCallException(NativeCallException.Library.NCCL,
                "ncclCommInitAll", 2, "unhandled system error"));
        assertThat(e.exitCode()).isEqualTo(3);
        assertThat(e.getMessage()).isEqualTo("the GPU stack failed: ncclCommInitAll: unhandled system error");
        assertThat(e.hint()).contains("NCCL_DEBUG=WARN");
        assertThat(cuda(700, "an illegal memory access was encountered").hint()).contains("nvidia-smi");
    }
}
