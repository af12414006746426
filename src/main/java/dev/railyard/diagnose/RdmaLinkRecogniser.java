package dev.railyard.diagnose;

import dev.railyard.model.CheckId;
import dev.railyard.bench.TextLines;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * rdma link: "link mlx5_0/1 [subnet_prefix … lid 3403 sm_lid 1 lmc 0] state ACTIVE physical_state LINK_UP netdev
 * p1p1". A port pasted several times (a flapping link looked at again) is judged on its last line, and the earlier
 * states are named.
 */
public record RdmaLinkRecogniser() implements Recogniser {

    private static final Pattern LINK = Pattern.compile(
            "\\blink (\\S+)/(\\d{1,3}) (.*?)state (\\w+) physical_state (\\w+)");
    private static final Pattern LID = Pattern.compile("\\blid (\\d+)");
    private static final Pattern SM = Pattern.compile("\\bsm_lid (\\d+)");

    @Override
    public ToolKind tool() {
        return ToolKind.RDMA_LINK;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of(" physical_state ");
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> l.contains("physical_state") && LINK.matcher(l).find());
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        Map<String, RdmaPort> last = new LinkedHashMap<>();
        Map<String, List<String>> history = new LinkedHashMap<>();
        for (String l : text.lines()) {
            Matcher m = LINK.matcher(l);
            if (!m.find()) continue;
            String key = m.group(1) + "/" + m.group(2);
            boolean ib = m.group(3).contains("subnet_prefix");
            Matcher lid = LID.matcher(m.group(3));
            Matcher sm = SM.matcher(m.group(3));
            last.put(key, PastedPorts.port(m.group(1), Integer.parseInt(m.group(2)),
                    Reading.of(PastedPorts.state(m.group(4))), Reading.of(PastedPorts.physState(m.group(5))),
                    PastedPorts.absent(), Reading.of(ib ? "InfiniBand" : "Ethernet"),
                    lid.find() ? Reading.of(Integer.parseInt(lid.group(1))) : PastedPorts.absent(),
                    sm.find() ? Reading.of(Integer.parseInt(sm.group(1))) : PastedPorts.absent(), Map.of()));
            history.computeIfAbsent(key, k -> new ArrayList<>()).add(m.group(4) + "/" + m.group(5));
        }
        List<Diagnosis> out = new ArrayList<>(PastedPorts.judge(List.copyOf(last.values()),
                PastedPorts.Rules.STATE_AND_RATE, text));
        history.forEach((port, states) -> {
            if (states.stream().distinct().count() > 1) {
                out.add(Diagnosis.of(CheckId.RDMA_PORT_STATE.id(), dev.railyard.model.Severity.WARN, port,
                        "the link changed state between the pastes (" + String.join(" → ", states)
                                + "): a link that flaps has a marginal cable, transceiver or switch port",
                        dev.railyard.check.Fix.lines("rdma link show " + dev.railyard.check.ShellWord.of(port),
                                "perfquery -x   # symbol errors and link downs on this port",
                                dev.railyard.check.Fix.note("reseat or replace the cable of " + port
                                        + " if link_downed keeps rising")), 0, "", "rdma link"));
            }
        });
        return new ToolReading(out, Parsed.none().withNumbers(List.of(new Measurement("ports", last.size(), "ports"))));
    }
}
