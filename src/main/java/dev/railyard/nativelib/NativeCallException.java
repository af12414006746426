package dev.railyard.nativelib;

import java.util.OptionalInt;

/**
 * A native call returned an error, or a library lacks a symbol we need. Carries the call, the library's own error
 * code and text, so {@link NativeFailure} can tell a user's situation (no driver, not enough memory) from a fault.
 */
public final class NativeCallException extends RuntimeException {

    /** Whose error code {@link #code()} is. */
    public enum Library { CUDA, NCCL, CUBLAS, OTHER }

    private final Library library;
    private final String call;
    private final OptionalInt code;
    private final String text;

    /** {@code call} returned {@code code}, which the library explains as {@code text}. */
    public NativeCallException(Library library, String call, int code, String text) {
        super(call + " failed: " + text + " (" + (switch (library) {
            case NCCL -> "ncclResult ";
            case CUBLAS -> "cublasStatus ";
            default -> "cudaError ";
        }) + code + ")");
        this.library = library;
        this.call = call;
        this.code = OptionalInt.of(code);
        this.text = text;
    }

    /** A library without the symbol, or a downcall that threw. */
    public NativeCallException(String message) {
        super(message);
        this.library = Library.OTHER;
        this.call = "";
        this.code = OptionalInt.empty();
        this.text = message;
    }

    public NativeCallException(String call, Throwable cause) {
        super(call + " failed: " + cause.getMessage(), cause);
        this.library = Library.OTHER;
        this.call = call;
        this.code = OptionalInt.empty();
        this.text = String.valueOf(cause.getMessage());
    }

    public Library library() {
        return library;
    }

    /** The function that failed, with the argument that matters ("cudaMalloc(1073741824)"). */
    public String call() {
        return call;
    }

    public OptionalInt code() {
        return code;
    }

    /** The library's own words for the code ("CUDA driver version is insufficient for CUDA runtime version"). */
    public String text() {
        return text;
    }
}
