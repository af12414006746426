package dev.railyard.model;

import java.util.List;

/**
 * A measured quantity against message size, for the report's curves: NCCL busbw per size, or an RDMA sweep
 * ({@code ib_write_bw -a}) of one pair. {@code subject} names where it was measured.
 */
public record SizeCurve(String title, String subject, String unit, List<Point> points) {

    public SizeCurve {
        points = List.copyOf(points);
    }

    public record Point(long bytes, double value) {}
}
