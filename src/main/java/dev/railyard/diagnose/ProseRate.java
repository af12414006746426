package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A link rate the person stated in the words around a paste ("two nodes on 100G IB", "our HDR fabric"): a better
 * yardstick than a default when no --rate was given. Only a number with a unit next to a network word, or an
 * InfiniBand generation name, counts.
 */
final class ProseRate {

    private static final Pattern NUMBER = Pattern.compile("(?i)\\b(\\d{2,3})\\s?(?:G|Gb|Gbps|Gbit|Gbit/s|Gb/s|GbE)\\b"
            + "(?=[\\s-]{0,3}(?:IB|InfiniBand|RoCE|Ethernet|NIC|link|network|fabric|port|HCA|ConnectX|card|adapter|"
            + "EDR|HDR|NDR|FDR|QDR)\\b)");
    private static final Pattern GENERATION = Pattern.compile("\\b(QDR|FDR|EDR|HDR|NDR|XDR)(?: InfiniBand| IB| fabric| network| link)\\b");
    private static final Map<String, Double> RATES = Map.of("QDR", 40.0, "FDR", 56.0, "EDR", 100.0, "HDR", 200.0,
            "NDR", 400.0, "XDR", 800.0);

    private ProseRate() {
    }

    /** The stated rate in Gb/s and the words that stated it; only lines that are not the tool's own output. */
    record Stated(double gbps, String words) {}

    static Optional<Stated> in(TextLines text) {
        for (String l : text.lines()) {
            if (l.startsWith(" ") || l.contains("|") || l.contains("[B]") || l.contains(":")) continue; // tool output
            Matcher m = NUMBER.matcher(l);
            if (m.find()) return Optional.of(new Stated(Double.parseDouble(m.group(1)), l.strip()));
            Matcher g = GENERATION.matcher(l);
            if (g.find()) return Optional.of(new Stated(RATES.get(g.group(1)), l.strip()));
        }
        return Optional.empty();
    }
}
