package dev.railyard.nativelib;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The part of cuBLASLt (libcublasLt) a GPU load needs: one square matrix multiply D = A^T x B in FP32, BF16 or FP8
 * (E4M3) inputs with FP32 accumulation and an FP32 result, planned once (algorithm from the library's heuristic)
 * and launched many times on a stream. A transposed and B not ("TN") because cuBLASLt's FP8 kernels take only that
 * layout; every precision uses it so the three differ in the input type alone.
 */
public final class FfmCublasLt {

    public static final List<String> CANDIDATES = List.of("libcublasLt.so", "libcublasLt.so.13", "libcublasLt.so.12",
            "/usr/local/cuda/lib64/libcublasLt.so", "/usr/local/cuda/lib64/libcublasLt.so.13",
            "/usr/local/cuda/lib64/libcublasLt.so.12");

    /** The input types, with cudaDataType_t's value (library_types.h) and the bytes of one element. */
    public enum InputType {
        FP32(0, 4), BF16(14, 2), FP8_E4M3(28, 1);

        final int cudaDataType;
        public final int bytes;

        InputType(int cudaDataType, int bytes) {
            this.cudaDataType = cudaDataType;
            this.bytes = bytes;
        }
    }

    private static final int CUDA_R_32F = 0;
    private static final int CUBLAS_COMPUTE_32F = 68;
    private static final int DESC_TRANSA = 3;
    private static final int CUBLAS_OP_T = 1;
    private static final int PREF_MAX_WORKSPACE_BYTES = 1;
    /** cublasLtMatmulHeuristicResult_t: algo (8 x uint64), workspaceSize, state, wavesCount, reserved[4]. */
    private static final long HEURISTIC_RESULT_BYTES = 96;
    private static final long HEURISTIC_STATE_OFFSET = 72;

    private final MethodHandle create, destroy, descCreate, descSetAttribute, descDestroy, layoutCreate, layoutDestroy,
            prefCreate, prefSetAttribute, prefDestroy, heuristic, matmul, getVersion;
    private final Optional<MethodHandle> statusString;
    private final String library;

    public FfmCublasLt(NativeLibrary lib) {
        library = lib.name();
        create = lib.require("cublasLtCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        destroy = lib.require("cublasLtDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        descCreate = lib.require("cublasLtMatmulDescCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        descSetAttribute = lib.require("cublasLtMatmulDescSetAttribute",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG));
        descDestroy = lib.require("cublasLtMatmulDescDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        layoutCreate = lib.require("cublasLtMatrixLayoutCreate",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        layoutDestroy = lib.require("cublasLtMatrixLayoutDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        prefCreate = lib.require("cublasLtMatmulPreferenceCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        prefSetAttribute = lib.require("cublasLtMatmulPreferenceSetAttribute",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG));
        prefDestroy = lib.require("cublasLtMatmulPreferenceDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        heuristic = lib.require("cublasLtMatmulAlgoGetHeuristic", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS,
                ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
        matmul = lib.require("cublasLtMatmul", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS,
                ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG,
                ADDRESS));
        getVersion = lib.require("cublasLtGetVersion", FunctionDescriptor.of(JAVA_LONG));
        statusString = lib.find("cublasLtGetStatusString", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    }

    /** The file that was loaded, as found. */
    public String library() {
        return library;
    }

    /** cublasLtGetVersion: 120903 for 12.9.3. */
    public long version() {
        try {
            return (long) getVersion.invokeExact();
        } catch (Throwable t) {
            throw wrap("cublasLtGetVersion", t);
        }
    }

    /**
     * A planned multiply of n x n matrices on the current device: D (FP32) = A^T x B, A and B of {@code type}, with
     * up to {@code workspace.bytes()} of scratch. Fails when the library has no kernel for the type on this GPU.
     */
    public Matmul plan(InputType type, int n, DeviceBuffer workspace) {
        Arena arena = Arena.ofShared();
        try {
            MemorySegment p = arena.allocate(ADDRESS);
            check("cublasLtCreate", (int) create.invokeExact(p));
            MemorySegment handle = p.get(ADDRESS, 0);
            check("cublasLtMatmulDescCreate", (int) descCreate.invokeExact(p, CUBLAS_COMPUTE_32F, CUDA_R_32F));
            MemorySegment desc = p.get(ADDRESS, 0);
            MemorySegment op = arena.allocateFrom(JAVA_INT, CUBLAS_OP_T);
            check("cublasLtMatmulDescSetAttribute(TRANSA)", (int) descSetAttribute.invokeExact(desc, DESC_TRANSA, op, 4L));
            MemorySegment a = layout(p, type.cudaDataType, n);
            MemorySegment b = layout(p, type.cudaDataType, n);
            MemorySegment d = layout(p, CUDA_R_32F, n);
            check("cublasLtMatmulPreferenceCreate", (int) prefCreate.invokeExact(p));
            MemorySegment pref = p.get(ADDRESS, 0);
            MemorySegment ws = arena.allocateFrom(JAVA_LONG, workspace.bytes());
            check("cublasLtMatmulPreferenceSetAttribute", (int) prefSetAttribute.invokeExact(pref,
                    PREF_MAX_WORKSPACE_BYTES, ws, 8L));
            MemorySegment result = arena.allocate(HEURISTIC_RESULT_BYTES, 8);
            MemorySegment found = arena.allocate(JAVA_INT);
            check("cublasLtMatmulAlgoGetHeuristic(" + type + ", n=" + n + ")", (int) heuristic.invokeExact(handle,
                    desc, a, b, d, d, pref, 1, result, found));
            check("cublasLtMatmulPreferenceDestroy", (int) prefDestroy.invokeExact(pref));
            if (found.get(JAVA_INT, 0) < 1 || result.get(JAVA_INT, HEURISTIC_STATE_OFFSET) != 0) {
                throw new NativeCallException("cuBLASLt has no " + type + " matrix multiply kernel for this GPU ("
                        + library + ")");
            }
            MemorySegment one = arena.allocateFrom(JAVA_FLOAT, 1f);
            MemorySegment zero = arena.allocateFrom(JAVA_FLOAT, 0f);
            return new Matmul(arena, handle, desc, a, b, d, result, one, zero, workspace, n);
        } catch (Throwable t) {
            arena.close();
            throw wrap("cublasLt plan", t);
        }
    }

    private MemorySegment layout(MemorySegment p, int type, int n) throws Throwable {
        check("cublasLtMatrixLayoutCreate", (int) layoutCreate.invokeExact(p, type, (long) n, (long) n, (long) n));
        return p.get(ADDRESS, 0);
    }

    /** One planned multiply; not thread-safe (one per GPU, used by that GPU's thread). */
    public final class Matmul implements AutoCloseable {
        private final Arena arena;
        private final MemorySegment handle, desc, a, b, d, algo, one, zero;
        private final DeviceBuffer workspace;
        private final int n;

        private Matmul(Arena arena, MemorySegment handle, MemorySegment desc, MemorySegment a, MemorySegment b,
                       MemorySegment d, MemorySegment algo, MemorySegment one, MemorySegment zero,
                       DeviceBuffer workspace, int n) {
            this.arena = arena;
            this.handle = handle;
            this.desc = desc;
            this.a = a;
            this.b = b;
            this.d = d;
            this.algo = algo;
            this.one = one;
            this.zero = zero;
            this.workspace = workspace;
            this.n = n;
        }

        public int n() {
            return n;
        }

        /** Queues result = A^T x B on {@code stream}; returns at once. */
        public void launch(DeviceBuffer matrixA, DeviceBuffer matrixB, DeviceBuffer result, CudaStream stream) {
            try {
                check("cublasLtMatmul", (int) matmul.invokeExact(handle, desc, one, matrixA.address, a,
                        matrixB.address, b, zero, result.address, d, result.address, d, algo, workspace.address,
                        workspace.bytes(), stream.handle));
            } catch (Throwable t) {
                throw wrap("cublasLtMatmul", t);
            }
        }

        @Override
        public void close() {
            try {
                check("cublasLtMatrixLayoutDestroy", (int) layoutDestroy.invokeExact(a));
                check("cublasLtMatrixLayoutDestroy", (int) layoutDestroy.invokeExact(b));
                check("cublasLtMatrixLayoutDestroy", (int) layoutDestroy.invokeExact(d));
                check("cublasLtMatmulDescDestroy", (int) descDestroy.invokeExact(desc));
                check("cublasLtDestroy", (int) destroy.invokeExact(handle));
            } catch (Throwable t) {
                throw wrap("cublasLt close", t);
            } finally {
                arena.close();
            }
        }
    }

    private void check(String what, int status) throws Throwable {
        if (status == 0) return;
        String text = "cublasStatus " + status;
        if (statusString.isPresent()) text = NativeLibrary.cString((MemorySegment) statusString.get().invokeExact(status));
        throw new NativeCallException(NativeCallException.Library.CUBLAS, what, status, text);
    }

    private static NativeCallException wrap(String what, Throwable t) {
        return t instanceof NativeCallException n ? n : new NativeCallException(what, t);
    }
}
