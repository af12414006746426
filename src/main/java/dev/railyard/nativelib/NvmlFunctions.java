package dev.railyard.nativelib;

import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Downcall handles for the {@link NvmlSymbol}s one loaded libnvidia-ml exports. A symbol an older driver lacks
 * simply has no handle; calling it answers NVML_ERROR_FUNCTION_NOT_FOUND, so callers treat it like NVML's own
 * "this library does not implement it" and only that field goes absent.
 */
// Restricted FFM calls are this package's purpose; the jar and surefire enable native access.
@SuppressWarnings("restricted")
final class NvmlFunctions {

    private final Linker linker;
    private final Map<NvmlSymbol, MemorySegment> addresses;
    /**
     * Made on first use, as a spreader taking Object[]: a downcall handle costs a generated stub (about 40 of them,
     * most never called by a one-shot inventory), and invokeWithArguments re-adapts the handle on every call (the
     * agent makes ~300 calls a second).
     */
    private final Map<NvmlSymbol, MethodHandle> spreaders = new ConcurrentHashMap<>();

    /** nvmlErrorString, returning a pointer: not a spreader; made on first use like the others. */
    private volatile MethodHandle errorStringHandle;

    private NvmlFunctions(Linker linker, Map<NvmlSymbol, MemorySegment> addresses) {
        this.linker = linker;
        this.addresses = addresses;
    }

    static NvmlFunctions bind(SymbolLookup lookup) {
        Map<NvmlSymbol, MemorySegment> addresses = new EnumMap<>(NvmlSymbol.class);
        for (NvmlSymbol s : NvmlSymbol.values()) {
            lookup.find(s.cName).ifPresent(addr -> addresses.put(s, addr));
        }
        return new NvmlFunctions(Linker.nativeLinker(), addresses);
    }

    private MethodHandle handle(NvmlSymbol s) {
        MemorySegment addr = addresses.get(s);
        return addr == null ? null : linker.downcallHandle(addr, s.descriptor);
    }

    private MethodHandle spreader(NvmlSymbol s) {
        MethodHandle known = spreaders.get(s);
        if (known != null) return known;
        MethodHandle h = handle(s);
        if (h == null) return null;
        MethodHandle spread = h.asSpreader(Object[].class, h.type().parameterCount())
                .asType(MethodType.methodType(int.class, Object[].class));
        spreaders.putIfAbsent(s, spread);
        return spread;
    }

    boolean has(NvmlSymbol symbol) {
        return addresses.containsKey(symbol);
    }

    /** Calls a function returning nvmlReturn_t. */
    int call(NvmlSymbol symbol, Object... args) {
        MethodHandle h = spreader(symbol);
        if (h == null) return NvmlError.ERROR_FUNCTION_NOT_FOUND;
        try {
            return (int) h.invokeExact(args);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(symbol.cName + ": " + t, t);
        }
    }

    /** The error for a failed call, with nvmlErrorString's text (or the code when the library has no text). */
    NvmlError error(NvmlSymbol symbol, int code) {
        return new NvmlError(symbol.cName, code, errorString(code));
    }

    String errorString(int code) {
        MethodHandle h = errorStringHandle;
        if (h == null) {
            h = handle(NvmlSymbol.ERROR_STRING);
            if (h == null) return "NVML error " + code;
            errorStringHandle = h;
        }
        try {
            MemorySegment text = (MemorySegment) h.invokeExact(code);
            // NVML returns a pointer to a static NUL-terminated string; its length is unknown to the linker.
            return text.equals(MemorySegment.NULL) ? "NVML error " + code : text.reinterpret(Long.MAX_VALUE).getString(0);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("nvmlErrorString: " + t, t);
        }
    }
}
