package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.RdmaPort.LinkRate;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.Locale;
import java.util.Optional;

/**
 * rdma.port.rate: an active port's rate below the spec's network rate (10 Gb/sec on a 40G link: the bad QSFP+ DAC of
 * a 40G port at 10G) is a FAIL. Without a spec the port's maximum is unknown, so only a narrower width or lower rate
 * than a sibling port of the same device is judged (WARN); anything else is INFO. Ports read from sysfs and ports
 * pasted (ibstat, ibstatus, iblinkinfo, ibportstate, rdma link, mlxlink) are judged here alike.
 */
public final class RdmaPortRateRule implements Rule {

    public static final CheckId ID = CheckId.RDMA_PORT_RATE;

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "RdmaPort rate and width of ACTIVE ports (sysfs, or ibstat/ibstatus/iblinkinfo/ibportstate/rdma link/"
                + "mlxlink pasted); the spec network's rate; the device's other ports";
    }

    @Override
    public String thresholds() {
        return "networks[].rate_gbps of the spec; without a spec a sibling port's rate and width";
    }

    @Override
    public String severities() {
        return "below the spec: FAIL; below a sibling port: WARN; no reference: INFO; unreadable: UNKNOWN";
    }

    @Override
    public String fix() {
        return "replace the cable (a QSFP+ DAC that trained down), then read the rate file";
    }

    /**
     * One ACTIVE port's rate against the spec's rate where the spec binds the port, else against {@code sibling}, a
     * port of the same device that is wider or faster, if there is one.
     */
    public static Verdict judge(RdmaPort p, Optional<Double> specGbps, Optional<RdmaPort> sibling) {
        if (!(p.rate() instanceof Reading.Present<LinkRate>(LinkRate rate))) {
            return new Verdict(ID, Severity.UNKNOWN, p.rate().describe(),
                    specGbps.map(r -> fmt(r) + " Gb/sec").orElse("full rate"), "");
        }
        if (specGbps.isPresent()) {
            String expected = fmt(specGbps.get()) + " Gb/sec (spec)";
            return rate.gbps() + 1e-9 < specGbps.get()
                    ? new Verdict(ID, Severity.FAIL, rate.raw(), expected, cable(p))
                    : new Verdict(ID, Severity.PASS, rate.raw(), expected, "");
        }
        if (sibling.isPresent() && sibling.get().rate() instanceof Reading.Present<LinkRate>(LinkRate b)) {
            return new Verdict(ID, Severity.WARN, rate.raw(), b.raw() + " like " + sibling.get().ref(), cable(p));
        }
        return new Verdict(ID, Severity.INFO, rate.raw(), "no rate to compare: give networks[].rate_gbps in --spec", "");
    }

    /** Whether {@code other}'s link is wider or faster than {@code rate}: a sibling port this one falls short of. */
    public static boolean better(RdmaPort other, LinkRate rate) {
        return other.rate().optional().map(r -> width(r) > width(rate) || r.gbps() > rate.gbps()).orElse(false);
    }

    /** A bad cable negotiating 10G on a 40G link is the usual cause (seen on ConnectX-3 Pro back-to-back). */
    public static String cable(RdmaPort p) {
        return Fix.lines(Fix.note("replace the QSFP+ cable/DAC with a known-good one, then look again:"),
                "cat " + ShellWord.of("/sys/class/infiniband/" + p.device() + "/ports/" + p.port() + "/rate"));
    }

    /** Lanes from a width such as "4X"; 0 when unknown. */
    public static int width(LinkRate r) {
        String w = r.width().trim().toUpperCase(Locale.ROOT);
        if (!w.endsWith("X")) return 0;
        try {
            return Integer.parseInt(w.substring(0, w.length() - 1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String fmt(double gbps) {
        return gbps == Math.rint(gbps) ? String.valueOf((long) gbps) : String.valueOf(gbps);
    }
}
