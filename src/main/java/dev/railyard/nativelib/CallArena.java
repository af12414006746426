package dev.railyard.nativelib;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The native memory of one {@link OpenInRoot} call: zeroed slices of a block its thread keeps, so a read allocates
 * and frees nothing of its own (the agent makes hundreds a second; a confined arena per call cost a session, a
 * malloc, a zeroing and a free per struct, a fifth of the read). What does not fit, and a call made while another is
 * open on the same thread, gets an arena of its own that {@link #close} frees. Slices stay mapped after
 * {@code close} (the block is the thread's), so nothing handed out may outlive the call: OpenInRoot copies every
 * result to the heap before it returns.
 */
final class CallArena implements Arena {

    /** Room for a call's structs, paths and a sysfs attribute's first read buffer. */
    private static final long BLOCK = 16 * 1024;
    private static final ThreadLocal<CallArena> OF_THREAD = ThreadLocal.withInitial(CallArena::new);

    /** Freed by the collector when the thread, and with it this arena, is gone. */
    private final MemorySegment block = Arena.ofAuto().allocate(BLOCK, 16);
    private long used;
    private boolean open;
    private Arena overflow;

    private CallArena() {
    }

    /** The thread's arena, or a confined one while the thread's is open. */
    static Arena open() {
        CallArena a = OF_THREAD.get();
        if (a.open) return Arena.ofConfined();
        a.open = true;
        a.used = 0;
        return a;
    }

    @Override
    public MemorySegment allocate(long byteSize, long byteAlignment) {
        if (!open) throw new IllegalStateException("closed");
        long base = block.address();
        long start = ((base + used + byteAlignment - 1) & -byteAlignment) - base;
        if (byteSize > BLOCK || start > BLOCK - byteSize) {
            if (overflow == null) overflow = Arena.ofConfined();
            return overflow.allocate(byteSize, byteAlignment);
        }
        used = start + byteSize;
        return block.asSlice(start, byteSize).fill((byte) 0);
    }

    @Override
    public MemorySegment.Scope scope() {
        return block.scope();
    }

    @Override
    public void close() {
        if (overflow != null) {
            overflow.close();
            overflow = null;
        }
        open = false;
    }
}
