package dev.railyard.agent;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects data points per metric family and builds client_java snapshots from them: a family with no points is
 * left out (no GPU, no gauge), as exporters do. Counter names are given without "_total"; the writers add it.
 */
final class MetricFamilies {

    private record Point(Labels labels, double value) {}

    private record Family(boolean counter, String help, List<Point> points) {}

    private final Map<String, Family> families = new LinkedHashMap<>();

    void gauge(String name, String help, double value, String... labels) {
        add(name, false, help, value, labels);
    }

    void counter(String name, String help, double value, String... labels) {
        add(name, true, help, value, labels);
    }

    private void add(String name, boolean counter, String help, double value, String[] labels) {
        Family f = families.computeIfAbsent(name, k -> new Family(counter, help, new ArrayList<>()));
        if (f.counter() != counter) throw new IllegalArgumentException(name + " is both a gauge and a counter");
        f.points().add(new Point(Labels.of(labels), value));
    }

    MetricSnapshots build() {
        List<MetricSnapshot> out = new ArrayList<>();
        families.forEach((name, f) -> out.add(f.counter() ? counterSnapshot(name, f) : gaugeSnapshot(name, f)));
        return new MetricSnapshots(out);
    }

    private static MetricSnapshot gaugeSnapshot(String name, Family f) {
        GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(f.help());
        for (Point p : f.points()) {
            b.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(p.labels()).value(p.value()).build());
        }
        return b.build();
    }

    private static MetricSnapshot counterSnapshot(String name, Family f) {
        CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(f.help());
        for (Point p : f.points()) {
            b.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(p.labels()).value(p.value()).build());
        }
        return b.build();
    }
}
