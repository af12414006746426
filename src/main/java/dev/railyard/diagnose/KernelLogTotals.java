package dev.railyard.diagnose;

import java.util.List;

/**
 * What diagnose --format json gives as a kernel log's parsed result: how much was read and, for each Xid code and
 * device event, one entry with its count and first line, however often the log repeated it.
 */
public record KernelLogTotals(long lines, int xidLines, int linkEventLines, List<Repeated> events) {

    public KernelLogTotals {
        events = List.copyOf(events);
    }

    /** One thing the log said, and how many times: "Xid 79" on 0000:1b:00, 1,893 lines, first at [ 0.000137]. */
    public record Repeated(String what, String device, int count, String firstAt, int firstLine) {}
}
