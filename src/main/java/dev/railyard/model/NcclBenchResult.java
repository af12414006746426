package dev.railyard.model;

import java.util.List;

/** A whole sweep; {@code complete} is false when the run was interrupted and holds the rows measured until then. */
public record NcclBenchResult(String collective, int nranks, List<String> devices, String ncclVersion,
                              List<NcclSizeResult> sizes, double avgBusbwGBps, boolean complete) {

    public NcclBenchResult {
        devices = List.copyOf(devices);
        sizes = List.copyOf(sizes);
    }

    /** busbw at the largest size measured: what verdicts judge (the sweep average hides the plateau). */
    public double largestBusbwGBps() {
        return sizes.isEmpty() ? 0 : sizes.getLast().outOfPlace().busbwGBps();
    }

    public long wrongTotal() {
        return sizes.stream().mapToLong(s -> Math.max(0, s.outOfPlace().wrong())
                + s.inPlace().map(t -> Math.max(0, t.wrong())).orElse(0L)).sum();
    }
}
