package dev.railyard.nativelib;

import dev.railyard.model.RailyardException;

import java.util.List;

/**
 * The one place libcudart, libnccl and libcublasLt are found, for every command that uses them (bench gpu, bench
 * nccl, burn). $RAILYARD_CUDART, $RAILYARD_NCCL and $RAILYARD_CUBLASLT, when set, name the file to use instead of searching the usual names (a build
 * under test, or the test suite's fakes); a named file that does not load is an error, not a fall-back, so a run
 * never measures a different library than the one asked for.
 */
public final class CudaLibraries {

    public static final String CUDART_VARIABLE = "RAILYARD_CUDART";
    public static final String NCCL_VARIABLE = "RAILYARD_NCCL";
    public static final String CUBLASLT_VARIABLE = "RAILYARD_CUBLASLT";

    private CudaLibraries() {
    }

    /** The CUDA runtime, or a prerequisite error naming what is missing and how to get it. */
    public static FfmCuda cudart() {
        return cudart(candidates(CUDART_VARIABLE, FfmCuda.CANDIDATES));
    }

    public static FfmCuda cudart(List<String> candidates) {
        return switch (NativeLibrary.open(candidates)) {
            case NativeLibrary.Loaded.Ok ok -> bind(() -> new FfmCuda(ok.library()), "the CUDA runtime " + ok.library().name());
            case NativeLibrary.Loaded.Unavailable u -> throw new RailyardException.MissingPrerequisite(
                    "the CUDA runtime (libcudart) could not be loaded: " + u.reason(),
                    "install the CUDA toolkit runtime (Debian/Ubuntu: cuda-cudart-13-0; RHEL: cuda-cudart-13-0), "
                            + "add its lib64 to LD_LIBRARY_PATH, or name the file in " + CUDART_VARIABLE);
        };
    }

    /** NCCL, or a prerequisite error naming what is missing and how to get it. */
    public static FfmNccl nccl() {
        return nccl(candidates(NCCL_VARIABLE, FfmNccl.CANDIDATES));
    }

    public static FfmNccl nccl(List<String> candidates) {
        return switch (NativeLibrary.open(candidates)) {
            case NativeLibrary.Loaded.Ok ok -> bind(() -> new FfmNccl(ok.library()), "NCCL " + ok.library().name());
            case NativeLibrary.Loaded.Unavailable u -> throw new RailyardException.MissingPrerequisite(
                    "NCCL (libnccl.so.2) could not be loaded: " + u.reason(),
                    "install NCCL (Debian/Ubuntu: libnccl2; RHEL: libnccl) from NVIDIA's CUDA repository, or name "
                            + "the file in " + NCCL_VARIABLE);
        };
    }

    /** cuBLASLt, or a prerequisite error naming what is missing and how to get it. */
    public static FfmCublasLt cublasLt() {
        return cublasLt(candidates(CUBLASLT_VARIABLE, FfmCublasLt.CANDIDATES));
    }

    public static FfmCublasLt cublasLt(List<String> candidates) {
        return switch (NativeLibrary.open(candidates)) {
            case NativeLibrary.Loaded.Ok ok -> bind(() -> new FfmCublasLt(ok.library()), "cuBLASLt " + ok.library().name());
            case NativeLibrary.Loaded.Unavailable u -> throw new RailyardException.MissingPrerequisite(
                    "cuBLASLt (libcublasLt) could not be loaded: " + u.reason(),
                    "install the CUDA toolkit's cuBLAS (Debian/Ubuntu: libcublas-13-0; RHEL: libcublas-13-0), add its "
                            + "lib64 to LD_LIBRARY_PATH, or name the file in " + CUBLASLT_VARIABLE);
        };
    }

    private static List<String> candidates(String variable, List<String> defaults) {
        String path = System.getenv(variable);
        return path == null || path.isBlank() ? defaults : List.of(path);
    }

    /** A library that loads but lacks a function we call is too old (or not the library it is named after). */
    private static <T> T bind(java.util.function.Supplier<T> binding, String what) {
        try {
            return binding.get();
        } catch (NativeCallException e) {
            throw new RailyardException.MissingPrerequisite(what + " is missing a function Railyard calls: "
                    + e.getMessage(), "install a current release (CUDA 12 or later, NCCL 2.18 or later)");
        }
    }
}
