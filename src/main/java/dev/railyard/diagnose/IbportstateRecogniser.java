package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ibportstate (and smpquery portinfo): "# Port info: Lid 1 port 6" blocks of dotted "LinkState:.......Active"
 * fields, the queried port and its peer. The rate is the active width times the active lane speed (the extended
 * speed where "LinkSpeedActive" says so).
 */
public record IbportstateRecogniser() implements Recogniser {

    private static final Pattern HEAD = Pattern.compile("# (?:MLNX ext )?Port info: (?:Lid (\\d+) )?(?:DR path .*?)?port (\\d{1,3})");
    private static final Pattern FIELD = Pattern.compile("^\\s*(\\w+):\\.{2,}(.*?)\\s*$");
    private static final Pattern WIDTH = Pattern.compile("(\\d{1,2})X");
    private static final Pattern SPEED = Pattern.compile("([\\d.]+) Gbps");

    @Override
    public ToolKind tool() {
        return ToolKind.IBPORTSTATE;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("LinkState:...", "PhysLinkState:...", "LinkWidthActive:...", "LinkSpeedActive:...");
    }

    @Override
    public boolean recognises(TextLines text) {
        // a block cut above its LinkState (the tail of a longer ibportstate output) still shows the active width and
        // speed, which no other tool prints in this dotted form
        return text.lines().stream().anyMatch(l -> l.startsWith("LinkState:..") || l.startsWith("PhysLinkState:..")
                || l.startsWith("LinkWidthActive:..") || l.startsWith("LinkSpeedActive:.."));
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        List<RdmaPort> ports = new ArrayList<>();
        List<Measurement> numbers = new ArrayList<>();
        String name = "port";
        int port = 0;
        Map<String, String> f = new HashMap<>();
        int first = 0;
        int i = 0;
        for (String l : text.lines()) {
            i++;
            Matcher h = HEAD.matcher(l);
            if (h.find()) {
                add(name, port, f, ports, numbers);
                boolean peer = l.contains("DR path");
                name = peer ? "peer of " + name : (h.group(1) == null ? "lid ?" : "lid " + h.group(1));
                port = Integer.parseInt(h.group(2));
                f = new HashMap<>();
                continue;
            }
            Matcher m = FIELD.matcher(l);
            if (m.find()) {
                f.put(m.group(1), m.group(2));
                if (first == 0) first = i;
            }
        }
        add(name, port, f, ports, numbers);
        // verdicts about the whole block stand on its first field, so a paste that holds ibportstate beside another
        // tool (ibstat after it) shows which lines this reading judged
        List<Diagnosis> judged = new ArrayList<>();
        for (Diagnosis d : PastedPorts.judge(ports, PastedPorts.Rules.STATE_AND_RATE, text)) {
            judged.add(d.lineNumber() > 0 || first == 0 ? d : new Diagnosis(d.finding(), first, text.line(first), d.source()));
        }
        return new ToolReading(judged, Parsed.none().withNumbers(numbers));
    }

    private static void add(String name, int port, Map<String, String> f, List<RdmaPort> ports,
                            List<Measurement> numbers) {
        if (!f.containsKey("LinkState") && !f.containsKey("LinkWidthActive") && !f.containsKey("LinkSpeedActive")) return;
        Reading<RdmaPort.LinkRate> rate = PastedPorts.absent();
        Matcher w = WIDTH.matcher(f.getOrDefault("LinkWidthActive", ""));
        String speedText = f.getOrDefault("LinkSpeedActive", "");
        if (speedText.contains("Extended")) speedText = f.getOrDefault("LinkSpeedExtActive", "");
        Matcher s = SPEED.matcher(speedText);
        if (w.find() && s.find()) {
            int lanes = Integer.parseInt(w.group(1));
            double lane = Double.parseDouble(s.group(1));
            double gbps = lanes * lane;
            rate = Reading.of(new RdmaPort.LinkRate(gbps, lanes + "X", lanes + "X " + s.group(1) + " Gbps"));
            numbers.add(new Measurement("lane speed of " + name + " port " + port, lane, "Gb/s"));
            numbers.add(new Measurement("rate of " + name + " port " + port, gbps, "Gb/s"));
        }
        Reading<Integer> lid = IbstatusRecogniser.lid(f.get("Lid"));
        Reading<Integer> sm = IbstatusRecogniser.lid(f.get("SMLid"));
        Reading<RdmaPort.PortState> state = f.containsKey("LinkState") ? Reading.of(PastedPorts.state(f.get("LinkState")))
                : PastedPorts.absent();
        ports.add(PastedPorts.port(name, port, state,
                IbstatusRecogniser.present(f.get("PhysLinkState"), PastedPorts::physState), rate,
                Reading.of("InfiniBand"), lid, sm, Map.of()));
    }
}
