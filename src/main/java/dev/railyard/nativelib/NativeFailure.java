package dev.railyard.nativelib;

import dev.railyard.model.RailyardException;

/**
 * What a failed CUDA or NCCL call means for the person who ran the command. A machine without a driver, or with one
 * older than the runtime, is a missing prerequisite (exit 3); running out of GPU memory is a size the user chose
 * (exit 2); anything else the GPU stack reports is a failure of that stack (exit 3), named by the call and the
 * library's own words, with where to look next. None of these is a Railyard bug.
 */
public final class NativeFailure {

    // driver_types.h
    private static final int CUDA_MEMORY_ALLOCATION = 2;
    private static final int CUDA_INITIALIZATION = 3;
    private static final int CUDA_STUB_LIBRARY = 34;
    private static final int CUDA_INSUFFICIENT_DRIVER = 35;
    private static final int CUDA_NO_DEVICE = 100;
    private static final int CUDA_INVALID_DEVICE = 101;
    private static final int CUDA_SYSTEM_DRIVER_MISMATCH = 803;
    private static final int CUDA_COMPAT_NOT_SUPPORTED = 804;

    private NativeFailure() {
    }

    public static RailyardException explain(NativeCallException e) {
        String words = e.call().isEmpty() ? e.getMessage() : e.call() + ": " + e.text();
        if (e.library() == NativeCallException.Library.CUDA && e.code().isPresent()) {
            switch (e.code().getAsInt()) {
                case CUDA_INSUFFICIENT_DRIVER, CUDA_SYSTEM_DRIVER_MISMATCH, CUDA_COMPAT_NOT_SUPPORTED, CUDA_STUB_LIBRARY -> {
                    return new RailyardException.MissingPrerequisite(
                            "the NVIDIA driver is missing or older than the CUDA runtime (" + words + ")",
                            "install or update the NVIDIA driver (Debian/Ubuntu: nvidia-driver; RHEL: nvidia-driver "
                                    + "from NVIDIA's CUDA repository) to one at least as new as the CUDA runtime; "
                                    + "nvidia-smi shows the highest CUDA version the driver supports");
                }
                case CUDA_NO_DEVICE, CUDA_INITIALIZATION -> {
                    return new RailyardException.MissingPrerequisite("no usable NVIDIA GPU (" + words + ")",
                            "check that the NVIDIA driver is loaded and sees the GPUs: nvidia-smi");
                }
                case CUDA_MEMORY_ALLOCATION -> {
                    return new RailyardException.Usage("the GPU ran out of memory (" + words + ")",
                            "use a smaller size, or free the GPU: nvidia-smi shows what else runs on it");
                }
                case CUDA_INVALID_DEVICE -> {
                    return new RailyardException.Usage("no such GPU (" + words + ")", "see: nvidia-smi -L");
                }
                default -> { }
            }
        }
        String where = e.library() == NativeCallException.Library.NCCL
                ? "rerun with NCCL_DEBUG=WARN for NCCL's own reason" : "check the GPU with: nvidia-smi";
        return new RailyardException.MissingPrerequisite("the GPU stack failed: " + words, where);
    }
}
