package dev.railyard.nativelib;

/** A native call returned an error, or a library lacks a symbol we need; the message names the call. */
public final class NativeCallException extends RuntimeException {
    public NativeCallException(String message) {
        super(message);
    }

    public NativeCallException(String message, Throwable cause) {
        super(message, cause);
    }
}
