package dev.railyard.diagnose;

import dev.railyard.model.CheckId;
import dev.railyard.bench.TextLines;
import dev.railyard.check.Fix;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * mlxlink, as text ("State : Active") or --json ("\"State\" : \"Active\"", read as far as a cut paste goes): the
 * port state judged as a sysfs port is, the speed, and the firmware's own link analysis (Recommendation, BER).
 */
public record MlxlinkRecogniser() implements Recogniser {

    private static final Pattern FIELD = Pattern.compile("^\\s*\"?([A-Za-z][\\w ()./-]*?)\"?\\s*:\\s*\"?([^\",]*?)\"?,?\\s*$");
    private static final Pattern SPEED = Pattern.compile("(\\d{1,4})G");
    /** The InfiniBand rates mlxlink names by generation, in Gb/s for four lanes. */
    private static final Map<String, Double> IB = Map.of("IB-SDR", 10.0, "IB-DDR", 20.0, "IB-QDR", 40.0,
            "IB-FDR10", 40.0, "IB-FDR", 56.0, "IB-EDR", 100.0, "IB-HDR", 200.0, "IB-NDR", 400.0, "IB-XDR", 800.0);

    @Override
    public ToolKind tool() {
        return ToolKind.MLXLINK;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("Operational Info");
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> l.contains("Operational Info"));
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        Map<String, String> f = new HashMap<>();
        for (String l : text.lines()) {
            Matcher m = FIELD.matcher(l);
            if (m.find()) f.putIfAbsent(m.group(1).strip().toLowerCase(Locale.ROOT), m.group(2).strip());
        }
        List<Measurement> numbers = new ArrayList<>();
        String speed = f.getOrDefault("speed", "");
        Double gbps = IB.get(speed.toUpperCase(Locale.ROOT));
        Matcher s = SPEED.matcher(speed);
        if (gbps == null && s.find()) gbps = Double.parseDouble(s.group(1));
        Reading<RdmaPort.LinkRate> rate = PastedPorts.absent();
        if (gbps != null) {
            numbers.add(new Measurement("speed", gbps, "Gb/s"));
            rate = Reading.of(new RdmaPort.LinkRate(gbps, f.getOrDefault("width", ""), speed));
        }
        String state = f.getOrDefault("state", "");
        boolean active = state.equalsIgnoreCase("Active");
        String phys = f.getOrDefault("physical state", "");
        // Ethernet ports report their auto-negotiation machine ("ETH_AN_FSM_ENABLE"), not LinkUp, while up
        String physForRule = active && phys.toUpperCase(Locale.ROOT).startsWith("ETH_") ? "LinkUp" : phys;
        RdmaPort port = PastedPorts.port("port", 1, state.isEmpty() ? PastedPorts.absent()
                        : Reading.of(PastedPorts.state(state)),
                physForRule.isEmpty() ? PastedPorts.absent() : Reading.of(PastedPorts.physState(physForRule)), rate,
                Reading.of(speed.startsWith("IB") ? "InfiniBand" : "Ethernet"), PastedPorts.absent(),
                PastedPorts.absent(), Map.of());
        List<Diagnosis> out = new ArrayList<>(PastedPorts.judge(List.of(port), PastedPorts.Rules.STATE_AND_RATE,
                text));
        String advice = f.getOrDefault("recommendation", "");
        if (!advice.isEmpty() && !advice.toLowerCase(Locale.ROOT).startsWith("no issue")) {
            int n = text.find("Recommendation");
            out.add(Diagnosis.of(CheckId.RDMA_PORT_PHYS.id(), Severity.WARN, "port", "the firmware's link analysis says: "
                            + advice, Fix.lines("for d in /sys/class/infiniband/*; do mlxlink -d \"${d##*/}\" -m -c; done   # module, BER",
                            Fix.note("follow the recommendation; a cable or transceiver fault shows as a rising "
                                    + "effective BER")), n, n > 0 ? text.line(n) : "", "mlxlink"));
        }
        String ber = f.getOrDefault("effective physical ber", "");
        if (!ber.isEmpty()) {
            try {
                double v = Double.parseDouble(ber.replace("E", "e"));
                numbers.add(new Measurement("effective physical BER", v, "errors/bit"));
                if (v > 1e-12) {
                    int n = text.find("Effective Physical BER");
                    out.add(Diagnosis.of(CheckId.RDMA_PORT_PHYS.id(), Severity.WARN, "port", "effective BER " + ber
                                    + " after FEC is above 1E-12: errors reach the traffic",
                            Fix.note("replace the cable or transceiver of this port"), n, n > 0 ? text.line(n) : "",
                            "mlxlink"));
                }
            } catch (NumberFormatException e) {
                // a BER field that is not a number is not judged
            }
        }
        return new ToolReading(out, Parsed.none().withNumbers(numbers));
    }
}
