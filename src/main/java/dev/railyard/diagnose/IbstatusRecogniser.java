package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** ibstatus: one block per port ("Infiniband device 'mlx5_0' port 1 status:"), judged as sysfs ports are. */
public record IbstatusRecogniser() implements Recogniser {

    private static final Pattern HEAD = Pattern.compile("Infiniband device '([^']{1,64})' port (\\d{1,3}) status:");
    private static final Pattern FIELD = Pattern.compile("^\\s*(default gid|base lid|sm lid|state|phys state|rate|"
            + "link_layer):\\s*(.*?)\\s*$");
    private static final Pattern RATE = Pattern.compile("([\\d.]+) Gb/sec(?: \\((\\d+X)[^)]*\\))?");

    @Override
    public ToolKind tool() {
        return ToolKind.IBSTATUS;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("Infiniband device '");
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> l.contains("Infiniband device '") && HEAD.matcher(l).find());
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        List<RdmaPort> ports = new ArrayList<>();
        List<Measurement> numbers = new ArrayList<>();
        String device = null;
        int port = 0;
        Map<String, String> fields = new java.util.HashMap<>();
        for (String l : text.lines()) {
            Matcher h = HEAD.matcher(l);
            if (h.find()) {
                if (device != null) ports.add(port(device, port, fields, numbers));
                device = h.group(1);
                port = Integer.parseInt(h.group(2));
                fields = new java.util.HashMap<>();
                continue;
            }
            Matcher f = FIELD.matcher(l);
            if (device != null && f.find()) fields.put(f.group(1).toLowerCase(Locale.ROOT), f.group(2));
        }
        if (device != null) ports.add(port(device, port, fields, numbers));
        // a healthy ibstatus after another tool's output is still its own section: its PASS shows its first header
        int first = 0;
        for (int i = 1; i <= text.lines().size() && first == 0; i++) {
            if (HEAD.matcher(text.line(i)).find()) first = i;
        }
        int at = first;
        List<Diagnosis> judged = PastedPorts.judge(ports, PastedPorts.Rules.STATE_AND_RATE, text).stream()
                .map(d -> d.severity() == dev.railyard.model.Severity.PASS && d.lineNumber() == 0 && at > 0
                        ? new Diagnosis(d.finding(), at, text.line(at), d.source()) : d)
                .toList();
        return new ToolReading(judged, Parsed.none().withNumbers(numbers));
    }

    private static RdmaPort port(String device, int port, Map<String, String> f, List<Measurement> numbers) {
        Reading<RdmaPort.LinkRate> rate = PastedPorts.absent();
        Matcher r = RATE.matcher(f.getOrDefault("rate", ""));
        if (r.find()) {
            double gbps = Double.parseDouble(r.group(1));
            rate = Reading.of(new RdmaPort.LinkRate(gbps, r.group(2) == null ? "" : r.group(2), f.get("rate")));
            numbers.add(new Measurement("rate of " + device + " port " + port, gbps, "Gb/s"));
        }
        return PastedPorts.port(device, port, present(f.get("state"), PastedPorts::state),
                present(f.get("phys state"), PastedPorts::physState), rate,
                f.containsKey("link_layer") ? Reading.of(f.get("link_layer")) : PastedPorts.absent(),
                lid(f.get("base lid")), lid(f.get("sm lid")), Map.of());
    }

    static <T> Reading<T> present(String s, java.util.function.Function<String, T> parse) {
        return s == null || s.isBlank() ? PastedPorts.absent() : Reading.of(parse.apply(s));
    }

    static Reading<Integer> lid(String s) {
        if (s == null) return PastedPorts.absent();
        try {
            String t = s.strip();
            return Reading.of(t.startsWith("0x") ? Integer.parseInt(t.substring(2), 16) : Integer.parseInt(t));
        } catch (NumberFormatException e) {
            return PastedPorts.absent();
        }
    }
}
