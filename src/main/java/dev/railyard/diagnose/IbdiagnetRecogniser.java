package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ibdiagnet: the fabric scan's sections ("Speed / Width checks" and its "-E- Link: ... Unexpected width" lines), its
 * "Fabric Summary" and its closing table "-I- Stage  Warnings  Errors". The verdicts are ibdiagnet's own: a stage with
 * errors is a FAIL, one with warnings a WARN (firmware older than the newest ibdiagnet knows is only advice), each
 * saying what the stage checks and quoting its first detail lines; without the table (a cut paste) the -E- lines of
 * each section speak for it.
 */
public record IbdiagnetRecogniser() implements Recogniser {

    static final String ID = "diagnose.ibdiagnet";
    private static final Pattern TABLE = Pattern.compile("^-I- Stage\\s+Warnings\\s+Errors");
    private static final Pattern ROW = Pattern.compile("^-I- (\\S.*?)\\s{2,}(\\d+)\\s+(\\d+)(?:\\s+(\\S.*))?$");
    private static final Pattern DETAIL = Pattern.compile("^-([EW])- (.+)$");
    private static final Pattern RULE = Pattern.compile("^-{20,}\\s*$");
    private static final Pattern FIELD = Pattern.compile("^(Total Nodes|IB Switches|IB Channel Adapters|Total number "
            + "of links|Links at \\S+)\\s*:\\s*(\\d+)\\s*$");
    private static final Pattern LOG = Pattern.compile("errors/warnings in: (\\S+)");

    /** A stage of the closing table, the line it is on, and the detail lines its section printed. */
    record Stage(String name, int warnings, int errors, int line, List<String> details) {}

    @Override
    public ToolKind tool() {
        return ToolKind.IBDIAGNET;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("-I- Stage", "IBDIAGNET", "ibdiagnet", "Fabric Summary");
    }

    @Override
    public boolean recognises(TextLines text) {
        boolean named = false;
        for (String l : text.lines()) {
            String s = l.strip();
            if (TABLE.matcher(s).find()) return true;
            named |= s.contains("IBDIAGNET") || s.contains("ibdiagnet");
            if (named && (s.startsWith("-E- ") || s.startsWith("-I- Discover"))) return true;
        }
        return false;
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        Map<String, List<String>> details = new LinkedHashMap<>();
        Map<String, Integer> detailLine = new LinkedHashMap<>();
        List<Stage> table = new ArrayList<>();
        List<Measurement> numbers = new ArrayList<>();
        String section = "";
        String log = "/var/tmp/ibdiagnet2/ibdiagnet2.log";
        boolean inTable = false;
        List<String> lines = text.lines();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).strip();
            if (RULE.matcher(l).matches() && i + 1 < lines.size()) {
                section = lines.get(i + 1).strip();
                inTable = false;
                continue;
            }
            if (TABLE.matcher(l).find()) {
                inTable = true;
                continue;
            }
            Matcher logPath = LOG.matcher(l);
            if (logPath.find()) log = logPath.group(1);
            Matcher row = ROW.matcher(l);
            if (inTable && row.find()) {
                table.add(new Stage(row.group(1), Integer.parseInt(row.group(2)), Integer.parseInt(row.group(3)),
                        i + 1, List.of()));
                continue;
            }
            Matcher d = DETAIL.matcher(l);
            if (d.find()) {
                details.computeIfAbsent(section, s -> new ArrayList<>()).add(l);
                detailLine.putIfAbsent(section, i + 1);
            }
            Matcher f = FIELD.matcher(l);
            if (f.find()) numbers.add(new Measurement(f.group(1), Long.parseLong(f.group(2)), "count"));
        }
        List<Diagnosis> out = new ArrayList<>();
        if (table.isEmpty()) {
            for (Map.Entry<String, List<String>> e : details.entrySet()) {
                List<String> ds = e.getValue();
                int errors = (int) ds.stream().filter(s -> s.startsWith("-E-")).count();
                out.add(stage(new Stage(e.getKey().isEmpty() ? "ibdiagnet" : e.getKey(), ds.size() - errors, errors,
                        detailLine.get(e.getKey()), ds), text, log));
            }
            if (out.isEmpty()) {
                out.add(Diagnosis.of(ID, Severity.UNKNOWN, "ibdiagnet", "the paste holds neither ibdiagnet's "
                                + "closing table (-I- Stage Warnings Errors) nor an -E- or -W- line",
                        Rerun.andDiagnose("the output was cut", "ibdiagnet.txt"), 0, "", "ibdiagnet"));
            }
        } else {
            int errors = 0, warnings = 0;
            for (Stage s : table) {
                errors += s.errors();
                warnings += s.warnings();
                numbers.add(new Measurement(s.name() + " errors", s.errors(), "count"));
                if (s.errors() + s.warnings() == 0) continue;
                out.add(stage(new Stage(s.name(), s.warnings(), s.errors(), s.line(),
                        details.getOrDefault(s.name(), List.of())), text, log));
            }
            numbers.add(new Measurement("errors", errors, "count"));
            numbers.add(new Measurement("warnings", warnings, "count"));
            if (errors + warnings == 0) {
                out.add(Diagnosis.of(ID, Severity.PASS, "fabric", table.size() + " ibdiagnet stages, no error and "
                        + "no warning", "", 0, "", "ibdiagnet"));
            }
        }
        return new ToolReading(out, Parsed.none().withNumbers(numbers));
    }

    private static Diagnosis stage(Stage s, TextLines text, String log) {
        boolean advice = s.errors() == 0 && s.name().equals("Nodes Information");
        Severity severity = s.errors() > 0 ? Severity.FAIL : advice ? Severity.INFO : Severity.WARN;
        String counts = s.errors() + " error" + (s.errors() == 1 ? "" : "s") + ", " + s.warnings() + " warning"
                + (s.warnings() == 1 ? "" : "s");
        String shown = s.details().isEmpty() ? "" : "; first: " + String.join(" | ",
                s.details().stream().limit(3).map(d -> d.length() > 200 ? d.substring(0, 200) + "..." : d).toList());
        return Diagnosis.of(ID, severity, s.name(), counts + ": " + checks(s.name()) + shown, fix(s.name(), log),
                s.line(), text.line(s.line()), "ibdiagnet");
    }

    /** What a stage of ibdiagnet checks, in the words of what its findings mean. */
    private static String checks(String stage) {
        return switch (stage) {
            case "Discovery" -> "the scan itself: nodes that did not answer its queries, duplicated GUIDs or node "
                    + "descriptions";
            case "Lids Check" -> "LIDs: a port without one, or two ports with the same (the subnet manager assigns "
                    + "them)";
            case "Links Check" -> "links whose two ends disagree (one end Active, the other not)";
            case "Subnet Manager" -> "the subnet managers: none is master, or more than one";
            case "Port Counters" -> "port error counters above ibdiagnet's thresholds or rising while it ran "
                    + "(symbol errors, link downs, receive errors): a cable, transceiver or port fault";
            case "Nodes Information" -> "device firmware older than the newest this ibdiagnet knows";
            case "Speed / Width checks" -> "links that trained below the speed or width both ends support: a "
                    + "cable, transceiver or port fault, and a slower link for everything routed over it";
            case "Temperature Sensing" -> "devices or modules reporting temperatures above their thresholds";
            case "Partition Keys" -> "ports whose partition keys disagree with their peers'";
            default -> "ibdiagnet's " + stage + " stage";
        };
    }

    private static String fix(String stage, String log) {
        String detail = "grep -E -- '^-(E|W)-' " + ShellWord.of(log) + "   # every finding, with its node and port";
        return switch (stage) {
            case "Speed / Width checks" -> Fix.lines(detail,
                    "iblinkinfo --line | grep -E '\\( *(1|2)X '   # links running on fewer than 4 lanes",
                    Fix.note("reseat or replace the cable of each link named, then run ibdiagnet again"));
            case "Port Counters" -> Fix.lines(detail,
                    "ibqueryerrors   # the ports whose error counters are set",
                    Fix.note("reseat or replace the cable of each port named, clear its counters (perfquery -R) "
                            + "and run ibdiagnet again to see whether they rise"));
            case "Subnet Manager", "Lids Check" -> Fix.lines(detail, "sminfo   # the master subnet manager",
                    Fix.note("keep exactly one master subnet manager on the fabric (others standby)"));
            case "Nodes Information" -> Fix.lines(detail, "mlxfwmanager --query   # this host's firmware and "
                    + "the newest available");
            default -> Fix.lines(detail);
        };
    }
}
