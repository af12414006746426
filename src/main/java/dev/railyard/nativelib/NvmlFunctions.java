package dev.railyard.nativelib;

import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.EnumMap;
import java.util.Map;

/**
 * Downcall handles for the {@link NvmlSymbol}s one loaded libnvidia-ml exports. A symbol an older driver lacks
 * simply has no handle; calling it answers NVML_ERROR_FUNCTION_NOT_FOUND, so callers treat it like NVML's own
 * "this library does not implement it" and only that field goes absent.
 */
// Restricted FFM calls are this package's purpose; the jar and surefire enable native access.
@SuppressWarnings("restricted")
final class NvmlFunctions {

    private final Map<NvmlSymbol, MethodHandle> handles;

    private NvmlFunctions(Map<NvmlSymbol, MethodHandle> handles) {
        this.handles = handles;
    }

    static NvmlFunctions bind(SymbolLookup lookup) {
        Linker linker = Linker.nativeLinker();
        Map<NvmlSymbol, MethodHandle> handles = new EnumMap<>(NvmlSymbol.class);
        for (NvmlSymbol s : NvmlSymbol.values()) {
            lookup.find(s.cName).ifPresent(addr -> handles.put(s, linker.downcallHandle(addr, s.descriptor)));
        }
        return new NvmlFunctions(handles);
    }

    boolean has(NvmlSymbol symbol) {
        return handles.containsKey(symbol);
    }

    /** Calls a function returning nvmlReturn_t. */
    int call(NvmlSymbol symbol, Object... args) {
        MethodHandle h = handles.get(symbol);
        if (h == null) return NvmlError.ERROR_FUNCTION_NOT_FOUND;
        try {
            return (int) h.invokeWithArguments(args);
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
        MethodHandle h = handles.get(NvmlSymbol.ERROR_STRING);
        if (h == null) return "NVML error " + code;
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
