package dev.railyard.render;

import java.util.ArrayList;
import java.util.List;

/** The one-line description of a bound network that several files repeat in a comment. */
final class NetworkText {

    private NetworkText() {
    }

    static String describe(RenderInput.Bound b) {
        var n = b.network();
        List<String> parts = new ArrayList<>();
        parts.add(n.name() + ": " + (b.infiniband() ? "InfiniBand (IPoIB)" : "Ethernet/RoCE"));
        n.rateGbps().ifPresent(r -> parts.add(rate(r) + " Gb/s"));
        n.subnet().ifPresent(parts::add);
        b.binding().rdma().ifPresent(r -> parts.add("RDMA " + r));
        return String.join(", ", parts);
    }

    static String rate(double r) {
        return r == Math.rint(r) ? Long.toString((long) r) : Double.toString(r);
    }
}
