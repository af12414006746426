package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * iblinkinfo: "CA: name:" and "Switch: guid name:" headers, then one line per port
 * "lid port[ ] ==( 4X 25.78125 Gbps Active/ LinkUp)==> ..." (or "==( Down/ Polling)==>" for a port with no link).
 */
public record IblinkinfoRecogniser() implements Recogniser {

    private static final Pattern NODE = Pattern.compile("^\\s*(CA|Switch): (?:0x[0-9a-f]+ )?(.+?):?\\s*$");
    private static final Pattern LINK = Pattern.compile(
            "^\\s*(?:0x[0-9a-f]+\\s+)?(\\d+)\\s+(\\d{1,3})\\[[^]]*]\\s+==\\(\\s*(?:(\\d{1,2})X\\s+([\\d.]+) Gbps\\s+)?(\\w+)/\\s*(\\w+)\\)==>");

    @Override
    public ToolKind tool() {
        return ToolKind.IBLINKINFO;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of(")==>");
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> l.contains(")==>") && LINK.matcher(l).find());
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        List<RdmaPort> ports = new ArrayList<>();
        List<Measurement> numbers = new ArrayList<>();
        String node = "node";
        for (String l : text.lines()) {
            Matcher n = NODE.matcher(l);
            if (n.find()) {
                node = n.group(2);
                continue;
            }
            Matcher m = LINK.matcher(l);
            if (!m.find()) continue;
            int port = Integer.parseInt(m.group(2));
            Reading<RdmaPort.LinkRate> rate = PastedPorts.absent();
            if (m.group(3) != null) {
                int lanes = Integer.parseInt(m.group(3));
                double lane = Double.parseDouble(m.group(4));
                rate = Reading.of(new RdmaPort.LinkRate(lanes * lane, lanes + "X", lanes + "X " + m.group(4) + " Gbps"));
                numbers.add(new Measurement("lane speed of " + node + " port " + port, lane, "Gb/s"));
            }
            ports.add(PastedPorts.port(node, port, Reading.of(PastedPorts.state(m.group(5))),
                    Reading.of(PastedPorts.physState(m.group(6))), rate, Reading.of("InfiniBand"),
                    Reading.of(Integer.parseInt(m.group(1))), PastedPorts.absent(), Map.of()));
        }
        return new ToolReading(PastedPorts.judge(ports, PastedPorts.Rules.STATE_AND_RATE, text),
                Parsed.none().withNumbers(numbers));
    }
}
