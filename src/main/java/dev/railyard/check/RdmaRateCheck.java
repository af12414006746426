package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.RdmaPort.LinkRate;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * rdma.port.rate: an active port's rate below the spec's network rate (10 Gb/sec on a 40G link: the bad QSFP+ DAC of
 * a 40G port at 10G). Without a spec the port's maximum is unknown, so only a narrower width or lower rate than a sibling port
 * of the same device is judged; anything else is INFO.
 */
public final class RdmaRateCheck implements Check {

    static final String ID = CheckId.RDMA_PORT_RATE.id();
    /** A bad cable negotiating 10G on a 40G link is the usual cause (seen on ConnectX-3 Pro back-to-back). */
    static String cable(RdmaPort p) {
        return Fix.lines(Fix.note("replace the QSFP+ cable/DAC with a known-good one, then look again:"),
                "cat " + ShellWord.of("/sys/class/infiniband/" + p.device() + "/ports/" + p.port() + "/rate"));
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        List<Finding> out = new ArrayList<>();
        List<RdmaPort> ports = in.ports();
        for (RdmaPort p : ports) {
            boolean active = p.state().optional().map(RdmaPort.PortState::isActive).orElse(false);
            if (!active) continue; // a port that is down has no negotiated rate; rdma.port.state reports it
            Optional<Double> specRate = in.bindingFor(p).flatMap(b -> b.network().rateGbps());
            if (!(p.rate() instanceof Reading.Present<LinkRate>(LinkRate rate))) {
                out.add(Finding.unknown(ID, p.ref(), p.rate(), specRate.map(r -> fmt(r) + " Gb/sec").orElse("full rate")));
                continue;
            }
            String fix = cable(p);
            if (specRate.isPresent()) {
                String expected = fmt(specRate.get()) + " Gb/sec (spec)";
                out.add(rate.gbps() + 1e-9 < specRate.get()
                        ? Finding.of(ID, Severity.FAIL, p.ref(), rate.raw(), expected, fix)
                        : Finding.pass(ID, p.ref(), rate.raw(), expected));
                continue;
            }
            Optional<RdmaPort> better = ports.stream()
                    .filter(o -> o.device().equals(p.device()) && o.port() != p.port())
                    .filter(o -> o.rate().optional().map(r -> width(r) > width(rate) || r.gbps() > rate.gbps()).orElse(false))
                    .findFirst();
            if (better.isPresent()) {
                LinkRate b = better.get().rate().optional().orElseThrow();
                out.add(Finding.of(ID, Severity.WARN, p.ref(), rate.raw(),
                        b.raw() + " like " + better.get().ref(), fix));
            } else {
                out.add(Finding.of(ID, Severity.INFO, p.ref(), rate.raw(),
                        "no rate to compare: give networks[].rate_gbps in --spec", ""));
            }
        }
        return out;
    }

    /** Lanes from a width such as "4X"; 0 when unknown. */
    static int width(LinkRate r) {
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
