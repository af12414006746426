package dev.railyard.nativelib;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A shared library opened through the FFM API, tried under several names (the loader path first, then the usual
 * install directories), with downcall handles looked up by symbol.
 */
public final class NativeLibrary {

    private static final Linker LINKER = Linker.nativeLinker();

    private final String name;
    private final SymbolLookup lookup;

    private NativeLibrary(String name, SymbolLookup lookup) {
        this.name = name;
        this.lookup = lookup;
    }

    /** The first candidate that loads, or the reasons none did (never throws). */
    public static Loaded open(List<String> candidates) {
        List<String> failures = new ArrayList<>();
        for (String c : candidates) {
            if (c.contains("/") && !Files.exists(Path.of(c))) continue;
            try {
                return new Loaded.Ok(new NativeLibrary(c, SymbolLookup.libraryLookup(c, Arena.global())));
            } catch (IllegalArgumentException | IllegalCallerException e) {
                failures.add(c + ": " + e.getMessage());
            }
        }
        return new Loaded.Unavailable(failures.isEmpty() ? "none of " + candidates + " found" : String.join("; ", failures));
    }

    public sealed interface Loaded permits Loaded.Ok, Loaded.Unavailable {
        record Ok(NativeLibrary library) implements Loaded {}

        record Unavailable(String reason) implements Loaded {}
    }

    public String name() {
        return name;
    }

    public Optional<MethodHandle> find(String symbol, FunctionDescriptor descriptor, Linker.Option... options) {
        return lookup.find(symbol).map(addr -> LINKER.downcallHandle(addr, descriptor, options));
    }

    /** A handle the library must have; a missing one means the library is too old or not the one we expect. */
    public MethodHandle require(String symbol, FunctionDescriptor descriptor, Linker.Option... options) {
        return find(symbol, descriptor, options).orElseThrow(
                () -> new NativeCallException(name + " has no symbol " + symbol));
    }

    /** Reads a C string returned by the library (error strings). */
    public static String cString(MemorySegment pointer) {
        if (pointer.equals(MemorySegment.NULL)) return "";
        return pointer.reinterpret(4096).getString(0);
    }
}
