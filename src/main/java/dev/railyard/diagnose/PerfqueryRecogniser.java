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
 * perfquery: dotted "SymbolErrorCounter:..............0" lines, judged by rdma.counters as the sysfs counters of the
 * same names are (perfquery's names map one to one onto the kernel's).
 */
public record PerfqueryRecogniser() implements Recogniser {

    private static final Pattern FIELD = Pattern.compile("^\\s*(\\w+):\\.{2,}(\\d+)\\s*$");
    private static final Pattern HEAD = Pattern.compile("# Port (?:extended )?counters: Lid (\\d+) port (\\d+)");
    private static final Map<String, String> SYSFS = Map.ofEntries(
            Map.entry("SymbolErrorCounter", "symbol_error"),
            Map.entry("LinkErrorRecoveryCounter", "link_error_recovery"),
            Map.entry("LinkDownedCounter", "link_downed"),
            Map.entry("PortRcvErrors", "port_rcv_errors"),
            Map.entry("PortRcvRemotePhysicalErrors", "port_rcv_remote_physical_errors"),
            Map.entry("PortRcvSwitchRelayErrors", "port_rcv_switch_relay_errors"),
            Map.entry("PortXmitDiscards", "port_xmit_discards"),
            Map.entry("PortXmitConstraintErrors", "port_xmit_constraint_errors"),
            Map.entry("PortRcvConstraintErrors", "port_rcv_constraint_errors"),
            Map.entry("LocalLinkIntegrityErrors", "local_link_integrity_errors"),
            Map.entry("ExcessiveBufferOverrunErrors", "excessive_buffer_overrun_errors"),
            Map.entry("VL15Dropped", "VL15_dropped"),
            Map.entry("PortXmitWait", "port_xmit_wait"),
            Map.entry("PortXmitData", "port_xmit_data"),
            Map.entry("PortRcvData", "port_rcv_data"));

    @Override
    public ToolKind tool() {
        return ToolKind.PERFQUERY;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("SymbolErrorCounter:..", "PortXmitData:..");
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> l.contains("SymbolErrorCounter:..") || l.contains("PortXmitData:.."));
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        Map<String, Reading<Long>> counters = new HashMap<>();
        List<Measurement> numbers = new ArrayList<>();
        String device = "lid ?";
        int port = 1;
        for (String l : text.lines()) {
            Matcher h = HEAD.matcher(l);
            if (h.find()) {
                device = "lid " + h.group(1);
                port = Integer.parseInt(h.group(2));
            }
            Matcher m = FIELD.matcher(l);
            if (!m.find()) continue;
            long v = Long.parseLong(m.group(2));
            if (m.group(1).equals("PortSelect")) port = (int) v;
            String sysfs = SYSFS.get(m.group(1));
            if (sysfs == null) continue;
            counters.put(sysfs, Reading.of(v));
            if (v > 0) numbers.add(new Measurement(m.group(1), v, "count"));
        }
        RdmaPort p = PastedPorts.port(device, port, PastedPorts.absent(), PastedPorts.absent(), PastedPorts.absent(),
                Reading.of("InfiniBand"), PastedPorts.absent(), PastedPorts.absent(), counters);
        return new ToolReading(PastedPorts.judge(List.of(p), PastedPorts.Rules.COUNTERS, text),
                Parsed.none().withNumbers(numbers));
    }
}
