package dev.railyard.bench.ibtools;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses ibstat. Users paste it with shell prompts and prose around it, so an adapter block is "CA 'name'" followed
 * by indented "Key: value" lines, and ends at the first unindented line. Pages that lost the indentation (a wiki or
 * knowledge-base copy) keep ibstat's own keys at the line start: those still belong to the block.
 */
public final class IbstatParser {

    static final String TOOL = "ibstat";
    private static final Pattern CA = Pattern.compile("^CA '([^']+)'\\s*$");
    private static final Pattern PORT = Pattern.compile("^\\s+Port (\\d+):\\s*$");
    private static final Pattern FIELD = Pattern.compile("^\\s+([A-Za-z ]+):\\s*(.*?)\\s*$");
    private static final Pattern FLAT_PORT = Pattern.compile("^Port (\\d+):\\s*$");
    private static final Pattern FLAT_FIELD = Pattern.compile("^(CA type|Number of ports|Firmware version|Hardware version"
            + "|Node GUID|System image GUID|State|Physical state|Rate|Base lid|LMC|SM lid|Capability mask|Port GUID"
            + "|Link layer):\\s*(.*?)\\s*$");

    public IbstatReport parse(String output) {
        TextLines text = TextLines.of(output);
        List<IbstatCa> adapters = new ArrayList<>();
        Block ca = null;
        PortBlock port = null;
        String panic = "";
        int panicLine = 0;
        for (int i = 1; i <= text.lines().size(); i++) {
            String line = text.line(i);
            Matcher m;
            if (line.startsWith("ibpanic:")) {
                // ibstat stops here; a later "ibstat <device>" in the same paste starts its own blocks
                if (ca != null) adapters.add(ca.build(port));
                ca = null;
                port = null;
                if (panic.isEmpty()) {
                    panic = line;
                    panicLine = i;
                }
                continue;
            }
            if ((m = CA.matcher(line)).matches()) {
                if (ca != null) adapters.add(ca.build(port));
                ca = new Block(m.group(1));
                port = null;
            } else if (ca != null && ((m = PORT.matcher(line)).matches() || (m = FLAT_PORT.matcher(line)).matches())) {
                if (port != null) ca.ports.add(port.build());
                port = new PortBlock(integer(m.group(1), i, line));
            } else if (ca != null && ((m = FIELD.matcher(line)).matches() || (m = FLAT_FIELD.matcher(line)).matches())) {
                String key = m.group(1).strip();
                String value = m.group(2);
                if (port != null) port.set(key, value, i, line);
                else if (key.equals("CA type")) ca.caType = value;
                else if (key.equals("Firmware version")) ca.firmware = value;
            } else if (ca != null && !line.isBlank() && !Character.isWhitespace(line.charAt(0))) {
                adapters.add(ca.build(port));
                ca = null;
                port = null;
            }
        }
        if (ca != null) adapters.add(ca.build(port));
        if (adapters.isEmpty() && panic.isEmpty()) {
            int n = text.firstNonBlank();
            throw new ToolParseException(TOOL, n, text.line(n), "no \"CA '...'\" block");
        }
        return new IbstatReport(adapters, panic, panicLine);
    }

    static int integer(String s, int n, String line) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new ToolParseException(TOOL, n, line, "not a number: " + s);
        }
    }

    private static final class Block {
        final String name;
        String caType = "";
        String firmware = "";
        final List<IbstatPort> ports = new ArrayList<>();

        Block(String name) {
            this.name = name;
        }

        IbstatCa build(PortBlock open) {
            if (open != null) ports.add(open.build());
            return new IbstatCa(name, caType, firmware, ports);
        }
    }

    private static final class PortBlock {
        final int number;
        String state = "";
        String physical = "";
        String linkLayer = "";
        int rate;
        int lid;
        int smLid;

        PortBlock(int number) {
            this.number = number;
        }

        void set(String key, String value, int n, String line) {
            switch (key) {
                case "State" -> state = value;
                case "Physical state" -> physical = value;
                case "Link layer" -> linkLayer = value;
                case "Rate" -> rate = value.matches("\\d{1,9}") ? integer(value, n, line) : 0;
                case "Base lid" -> lid = value.matches("\\d{1,9}") ? integer(value, n, line) : 0;
                case "SM lid" -> smLid = value.matches("\\d{1,9}") ? integer(value, n, line) : 0;
                default -> { /* GUIDs, LMC and the capability mask are not judged */ }
            }
        }

        IbstatPort build() {
            return new IbstatPort(number, state, physical, rate, lid, smLid, linkLayer);
        }
    }
}
