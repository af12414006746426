package dev.railyard.nativelib;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Calls the {@link NvmlSymbol}s one loaded libnvidia-ml exports. A symbol an older driver lacks simply has no
 * address; calling it answers NVML_ERROR_FUNCTION_NOT_FOUND, so callers treat it like NVML's own "this library does
 * not implement it" and only that field goes absent.
 *
 * <p>Why one call shape: the FFM linker builds a stub and method-handle adapters for each distinct function
 * descriptor, about 5 ms of CPU each on first use (measured with the fake NVML: 20 functions in the 5 shapes NVML's
 * getters have took 23-40 ms to bind and call once; through one shape, 0.5-0.7 ms). nvidia-smi pays none of that, and
 * a one-shot inventory calls each function once. Every NVML function Railyard calls returns a C int and takes at most
 * five arguments, each a pointer or a C int; on x86-64 (System V) and AArch64 (AAPCS64) all of these travel in
 * integer registers, a 32-bit int in the low half, which the callee reads and whose upper half it must ignore, and
 * registers the callee does not declare are never read. So each function is called through one {@code int (*)(long,
 * long, long, long, long)} handle with its address as the first argument and the unused registers zero. Other
 * architectures, or {@code -Drailyard.nvml.exactDescriptors=true}, bind each function with its own descriptor.
 */
// Restricted FFM calls are this package's purpose; the jar and surefire enable native access.
@SuppressWarnings("restricted")
final class NvmlFunctions {

    /** The ABIs on which the one-shape call above is the same machine call as the declared signature. */
    private static final Set<String> REGISTER_ABIS = Set.of("amd64", "x86_64", "aarch64");
    private static final int MAX_ARGS = 5;

    private final Linker linker;
    private final Map<NvmlSymbol, MemorySegment> addresses;
    /** The one shape: int f(long × 5), the function's address first; null where each function has its own. */
    private volatile MethodHandle uniform;
    /** Per function, exact-descriptor spreaders taking Object[] (made on first use; other ABIs only). */
    private final Map<NvmlSymbol, MethodHandle> spreaders = new ConcurrentHashMap<>();
    /** nvmlErrorString, returning a pointer: built by {@link #prepareErrorString} or the first failed call. */
    private volatile MethodHandle errorStringHandle;
    private final boolean exact;
    /** A rehearsal: arguments checked, nothing called, every call answers NVML_SUCCESS ({@link #rehearsal()}). */
    private final boolean rehearsal;

    private NvmlFunctions(Linker linker, Map<NvmlSymbol, MemorySegment> addresses, boolean exact, boolean rehearsal) {
        this.linker = linker;
        this.addresses = addresses;
        this.exact = exact;
        this.rehearsal = rehearsal;
    }

    /** Exact descriptors on ABIs where the one shape is not known to be the same call, or when asked for. */
    static boolean exactDescriptorsByDefault() {
        return Boolean.getBoolean("railyard.nvml.exactDescriptors") || !REGISTER_ABIS.contains(System.getProperty("os.arch"));
    }

    static NvmlFunctions bind(SymbolLookup lookup, boolean exact) {
        Map<NvmlSymbol, MemorySegment> addresses = new EnumMap<>(NvmlSymbol.class);
        for (NvmlSymbol s : NvmlSymbol.values()) {
            lookup.find(s.cName).ifPresent(addr -> addresses.put(s, addr));
        }
        return new NvmlFunctions(Linker.nativeLinker(), addresses, exact, false);
    }

    /**
     * The same functions for a rehearsal of the reads: each call checks its arguments as a real one does and
     * answers NVML_SUCCESS without calling the library, so the out-parameters keep the zeros they were allocated
     * with. Running the reads this way on another thread while nvmlInit_v2 works in the driver loads and links the
     * Java side of every read (the records, the memory accessors, the pattern switches: 7-9 ms on the 2-core VM with
     * the fake NVML) before the real reads need it.
     */
    NvmlFunctions rehearsal() {
        return new NvmlFunctions(linker, addresses, exact, true);
    }

    boolean has(NvmlSymbol symbol) {
        return addresses.containsKey(symbol);
    }

    /** Calls a function returning nvmlReturn_t; each argument a MemorySegment for a pointer or an Integer for an int. */
    int call(NvmlSymbol symbol, Object... args) {
        MemorySegment addr = addresses.get(symbol);
        if (addr == null) return NvmlError.ERROR_FUNCTION_NOT_FOUND;
        try {
            if (rehearsal) {
                registers(symbol, args);
                return NvmlError.SUCCESS;
            }
            if (exact) return (int) spreader(symbol, addr).invokeExact(args);
            long[] r = registers(symbol, args);
            return (int) uniform().invokeExact(addr, r[0], r[1], r[2], r[3], r[4]);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(symbol.cName + ": " + t, t);
        }
    }

    /**
     * The arguments as register values, checked against the symbol's C signature as an exact descriptor would
     * check them: the same count, a native segment for each pointer, an Integer for each int.
     */
    private static long[] registers(NvmlSymbol symbol, Object[] args) {
        List<MemoryLayout> declared = symbol.descriptor.argumentLayouts();
        if (args.length != declared.size()) {
            throw new IllegalArgumentException(symbol.cName + " takes " + declared.size() + " arguments, not " + args.length);
        }
        long[] r = new long[MAX_ARGS];
        for (int i = 0; i < args.length; i++) {
            Object a = args[i];
            if (declared.get(i) instanceof AddressLayout && a instanceof MemorySegment s && s.isNative()) {
                r[i] = s.address();
            } else if (declared.get(i).equals(JAVA_INT) && a instanceof Integer v) {
                r[i] = v;
            } else {
                throw new IllegalArgumentException(symbol.cName + " argument " + i + " is " + declared.get(i)
                        + ", not " + (a == null ? "null" : a.getClass().getSimpleName()));
            }
        }
        return r;
    }

    private MethodHandle uniform() {
        MethodHandle h = uniform;
        if (h == null) {
            h = linker.downcallHandle(FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
            uniform = h;
        }
        return h;
    }

    private MethodHandle spreader(NvmlSymbol s, MemorySegment addr) {
        MethodHandle known = spreaders.get(s);
        if (known != null) return known;
        MethodHandle h = linker.downcallHandle(addr, s.descriptor);
        // A spreader, since invokeWithArguments would re-adapt the handle on every call (the agent makes ~300 a second).
        MethodHandle spread = h.asSpreader(Object[].class, h.type().parameterCount())
                .asType(MethodType.methodType(int.class, Object[].class));
        spreaders.putIfAbsent(s, spread);
        return spread;
    }

    /**
     * Builds nvmlErrorString's handle, a second call shape, without calling it: the first failed read would otherwise
     * pay for it on the longest path (PCIe and GeForce cards answer NOT_SUPPORTED for some fields; the fake NVML's
     * such GPU: reads 19.2 -> 10.4 ms median). The rehearsal's thread does this beside nvmlInit_v2; on a GPU where
     * every field answers it costs nothing measurable (inventory's start-up in docs/benchmarks.md).
     */
    void prepareErrorString() {
        errorStringHandle();
    }

    /** Whether nvmlErrorString's handle is built (tests). */
    boolean errorStringPrepared() {
        return errorStringHandle != null;
    }

    /** nvmlErrorString's handle, made once; null when the library has no such function. */
    private MethodHandle errorStringHandle() {
        MethodHandle h = errorStringHandle;
        if (h == null) {
            MemorySegment addr = addresses.get(NvmlSymbol.ERROR_STRING);
            if (addr == null) return null;
            h = linker.downcallHandle(addr, NvmlSymbol.ERROR_STRING.descriptor);
            errorStringHandle = h;
        }
        return h;
    }

    /** The error for a failed call, with nvmlErrorString's text (or the code when the library has no text). */
    NvmlError error(NvmlSymbol symbol, int code) {
        return new NvmlError(symbol.cName, code, errorString(code));
    }

    String errorString(int code) {
        MethodHandle h = errorStringHandle();
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
