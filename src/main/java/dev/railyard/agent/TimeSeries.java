package dev.railyard.agent;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A fixed-size ring of (time, value) samples: memory stays bounded however long the agent runs. Samples closer than
 * {@code minSpacing} to the newest kept one replace it, so a ring of 400 spans an hour at 10 s spacing while the
 * newest value is always the latest sample.
 */
public final class TimeSeries {

    public record Point(Instant at, double value) {}

    private final Instant[] times;
    private final double[] values;
    private final Duration minSpacing;
    private int start;
    private int size;

    public TimeSeries(int capacity, Duration minSpacing) {
        if (capacity < 2) throw new IllegalArgumentException("capacity < 2");
        this.times = new Instant[capacity];
        this.values = new double[capacity];
        this.minSpacing = minSpacing;
    }

    public void add(Instant at, double value) {
        // the newest slot moves with every sample until it is minSpacing past the one before it, then it is kept
        if (size >= 2 && at.isBefore(times[index(size - 2)].plus(minSpacing))) {
            int newest = index(size - 1);
            times[newest] = at;
            values[newest] = value;
            return;
        }
        if (size == times.length) {
            start = (start + 1) % times.length;
            size--;
        }
        int i = index(size);
        times[i] = at;
        values[i] = value;
        size++;
    }

    public int size() {
        return size;
    }

    public Optional<Point> newest() {
        return size == 0 ? Optional.empty() : Optional.of(point(size - 1));
    }

    /** The oldest sample at or after {@code since}, or the oldest one kept when all are older. */
    public Optional<Point> oldestSince(Instant since) {
        for (int k = 0; k < size; k++) {
            Point p = point(k);
            if (!p.at().isBefore(since)) return Optional.of(p);
        }
        return size == 0 ? Optional.empty() : Optional.of(point(0));
    }

    /** The sample before the newest, for a per-interval rate. */
    public Optional<Point> previous() {
        return size < 2 ? Optional.empty() : Optional.of(point(size - 2));
    }

    public List<Point> points() {
        List<Point> out = new ArrayList<>(size);
        for (int k = 0; k < size; k++) out.add(point(k));
        return out;
    }

    private Point point(int k) {
        int i = index(k);
        return new Point(times[i], values[i]);
    }

    private int index(int k) {
        return (start + k) % times.length;
    }
}
