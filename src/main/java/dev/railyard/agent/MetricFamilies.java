package dev.railyard.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects data points per metric family; {@link ExpositionText} writes them. A family with no points is left out
 * (no GPU, no gauge), as exporters do. Families, points and each point's labels come out sorted as client_java
 * sorted them, so bodies compare line for line with what it wrote.
 */
final class MetricFamilies {

    /**
     * How a family's samples are named and typed. {@code COUNTER}: node_exporter's and Railyard's counters, given
     * without "_total", which the writer appends to each sample. {@code DCGM_COUNTER}: dcgm-exporter's counters,
     * typed counter under their exact names (DCGM_FI_DEV_PCIE_REPLAY_COUNTER, no "_total"), which its dashboards
     * and alerts query.
     */
    enum Kind { GAUGE, COUNTER, DCGM_COUNTER }

    /** One sample: label names and values alternating, sorted by name. */
    record Point(String[] labels, double value) {}

    record Family(String name, Kind kind, String help, List<Point> points) {}

    private final Map<String, Family> families = new TreeMap<>();

    void gauge(String name, String help, double value, String... labels) {
        add(name, Kind.GAUGE, help, value, labels);
    }

    void counter(String name, String help, double value, String... labels) {
        add(name, Kind.COUNTER, help, value, labels);
    }

    void dcgmCounter(String name, String help, double value, String... labels) {
        add(name, Kind.DCGM_COUNTER, help, value, labels);
    }

    private void add(String name, Kind kind, String help, double value, String[] labels) {
        if (labels.length % 2 != 0) throw new IllegalArgumentException(name + ": labels come in name/value pairs");
        Family f = families.get(name);
        if (f == null) families.put(name, f = new Family(name, kind, help, new ArrayList<>()));
        if (f.kind() != kind) throw new IllegalArgumentException(name + " is both a " + f.kind() + " and a " + kind);
        f.points().add(new Point(sorted(labels), value));
    }

    /** The pairs in label-name order (a handful of labels: insertion sort, in place on a copy). */
    private static String[] sorted(String[] labels) {
        String[] l = labels.clone();
        for (int i = 2; i < l.length; i += 2) {
            for (int j = i; j > 0 && l[j - 2].compareTo(l[j]) > 0; j -= 2) {
                String n = l[j], v = l[j + 1];
                l[j] = l[j - 2];
                l[j + 1] = l[j - 1];
                l[j - 2] = n;
                l[j - 1] = v;
            }
        }
        for (int i = 2; i < l.length; i += 2) {
            if (l[i].equals(l[i - 2])) throw new IllegalArgumentException("label " + l[i] + " given twice");
        }
        return l;
    }

    /** The families in name order, each family's points in label order (names first, then values). */
    List<Family> families() {
        for (Family f : families.values()) f.points().sort(MetricFamilies::byLabels);
        return List.copyOf(families.values());
    }

    private static int byLabels(Point a, Point b) {
        int names = compare(a.labels(), b.labels(), 0);
        return names != 0 ? names : compare(a.labels(), b.labels(), 1);
    }

    /** Every second entry from {@code first} on, compared in turn; a shorter list first. */
    private static int compare(String[] a, String[] b, int first) {
        for (int i = first; i < Math.min(a.length, b.length); i += 2) {
            int c = a[i].compareTo(b[i]);
            if (c != 0) return c;
        }
        return Integer.compare(a.length, b.length);
    }

    /** The sample names a scrape shows: counters' with "_total", dcgm-exporter's counters as they are. */
    List<String> sampleNames() {
        return families.values().stream().map(f -> f.kind() == Kind.COUNTER ? f.name() + "_total" : f.name()).toList();
    }
}
