package dev.railyard.report;

import dev.railyard.model.SizeCurve;

import java.util.List;
import java.util.Locale;

/**
 * One {@link SizeCurve} as an inline SVG line chart: message size on a log2 axis (as nccl-tests and perftest sweep
 * it), the value on a linear axis from zero, one dot per point with its number in a {@code <title>} tooltip.
 */
final class CurveSvg {

    private static final int W = 560;
    private static final int H = 260;
    private static final int LEFT = 64;
    private static final int RIGHT = 16;
    private static final int TOP = 16;
    private static final int BOTTOM = 48;

    private CurveSvg() {
    }

    static String render(SizeCurve curve) {
        List<SizeCurve.Point> pts = curve.points().stream().filter(p -> p.bytes() > 0 && Double.isFinite(p.value()))
                .toList();
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                "<svg class=\"curve\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "role=\"img\" aria-label=\"%s\">\n", W, H, W, H,
                Html.esc(curve.title() + " on " + curve.subject())));
        int plotW = W - LEFT - RIGHT;
        int plotH = H - TOP - BOTTOM;
        s.append(String.format(Locale.ROOT, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
                LEFT, TOP, plotW, plotH));
        if (pts.isEmpty()) {
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no points</text>\n",
                    LEFT + plotW / 2, TOP + plotH / 2));
            return s.append("</svg>\n").toString();
        }
        double minX = log2(pts.stream().mapToLong(SizeCurve.Point::bytes).min().orElseThrow());
        double maxX = log2(pts.stream().mapToLong(SizeCurve.Point::bytes).max().orElseThrow());
        double maxY = niceCeiling(pts.stream().mapToDouble(SizeCurve.Point::value).max().orElseThrow());
        double spanX = Math.max(maxX - minX, 1);
        for (int i = 0; i <= 4; i++) {
            double v = maxY * i / 4;
            double y = TOP + plotH - plotH * v / maxY;
            s.append(String.format(Locale.ROOT, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
                            + "<text class=\"axis\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                    LEFT, y, LEFT + plotW, y, LEFT - 6, y + 4, Quantities.number(v)));
        }
        int step = Math.max(1, (int) Math.ceil(spanX / 8));
        for (int e = (int) Math.ceil(minX); e <= maxX; e += step) {
            double x = LEFT + plotW * (e - minX) / spanX;
            s.append(String.format(Locale.ROOT, "<text class=\"axis\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                    x, TOP + plotH + 16, Quantities.bytes(1L << e)));
        }
        s.append(String.format(Locale.ROOT, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">message size</text>"
                        + "<text class=\"axis\" x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">%s</text>\n",
                LEFT + plotW / 2, H - 8, TOP + plotH / 2, TOP + plotH / 2, Html.esc(curve.unit())));
        StringBuilder line = new StringBuilder();
        StringBuilder dots = new StringBuilder();
        for (SizeCurve.Point p : pts) {
            double x = LEFT + plotW * (log2(p.bytes()) - minX) / spanX;
            double y = TOP + plotH - plotH * p.value() / maxY;
            line.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
            dots.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"><title>%s</title></circle>",
                    x, y, Html.esc(Quantities.bytes(p.bytes()) + ": " + Quantities.number(p.value()) + " " + curve.unit())));
        }
        s.append("<polyline class=\"line\" points=\"").append(line.toString().strip()).append("\"/>\n");
        return s.append(dots).append("\n</svg>\n").toString();
    }

    private static double log2(long bytes) {
        return Math.log(bytes) / Math.log(2);
    }

    /** The axis top: 1, 2 or 5 times a power of ten at or above the largest value, so the ticks read round. */
    static double niceCeiling(double max) {
        if (max <= 0) return 1;
        double p = Math.pow(10, Math.floor(Math.log10(max)));
        for (double m : new double[]{1, 2, 2.5, 5, 10}) {
            if (m * p >= max) return m * p;
        }
        return 10 * p;
    }
}
