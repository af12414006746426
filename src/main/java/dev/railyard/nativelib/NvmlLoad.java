package dev.railyard.nativelib;

/** The outcome of loading and initialising NVML: a ready session, or why NVML cannot be used on this host. */
public sealed interface NvmlLoad permits NvmlLoad.Ready, NvmlLoad.Unavailable {

    /** An initialised NVML; close it to call nvmlShutdown and unload the library. */
    record Ready(FfmNvml nvml) implements NvmlLoad {}

    /** No driver library, a library without NVML, or nvmlInit_v2 refused (no driver loaded, no permission). */
    record Unavailable(String reason) implements NvmlLoad {}
}
