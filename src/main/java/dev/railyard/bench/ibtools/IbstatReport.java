package dev.railyard.bench.ibtools;

import java.util.List;

/**
 * What ibstat printed. ibstat stops at the first adapter it cannot read with an "ibpanic:" line (exit 255);
 * the adapters before it are kept, and {@code panicLine} holds that line (empty when ibstat finished).
 */
public record IbstatReport(List<IbstatCa> adapters, String panicLine, int panicLineNumber) {
    public IbstatReport {
        adapters = List.copyOf(adapters);
    }

    public boolean complete() {
        return panicLine.isEmpty();
    }
}
