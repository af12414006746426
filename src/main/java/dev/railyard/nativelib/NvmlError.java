package dev.railyard.nativelib;

import dev.railyard.model.Reading;

/**
 * A non-success {@code nvmlReturn_t} from one call, with NVML's own text for it (nvmlErrorString).
 * Codes are the nvmlReturn_t values of nvml.h.
 */
record NvmlError(String function, int code, String text) {

    static final int SUCCESS = 0;
    static final int ERROR_UNINITIALIZED = 1;
    static final int ERROR_INVALID_ARGUMENT = 2;
    static final int ERROR_NOT_SUPPORTED = 3;
    static final int ERROR_NO_PERMISSION = 4;
    static final int ERROR_NOT_FOUND = 6;
    static final int ERROR_INSUFFICIENT_SIZE = 7;
    static final int ERROR_DRIVER_NOT_LOADED = 9;
    static final int ERROR_LIBRARY_NOT_FOUND = 12;
    static final int ERROR_FUNCTION_NOT_FOUND = 13;
    static final int ERROR_GPU_IS_LOST = 15;
    static final int ERROR_UNKNOWN = 999;

    /**
     * NOT_SUPPORTED is normal (a consumer GPU has no ECC, a PCIe card no NVLink), and a function an old driver
     * lacks says nothing about the GPU, so both are absent; every other code is a failure worth reporting.
     */
    <T> Reading<T> toReading() {
        return switch (code) {
            case ERROR_NOT_SUPPORTED -> Reading.absent("not supported by this GPU");
            case ERROR_FUNCTION_NOT_FOUND -> Reading.absent(function + " is not in this driver's NVML");
            default -> Reading.failed(function, text);
        };
    }
}
