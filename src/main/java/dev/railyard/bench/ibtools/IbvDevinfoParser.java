package dev.railyard.bench.ibtools;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses ibv_devinfo (with or without -v): hca_id blocks, their ports, and each port's state and link layer. */
public final class IbvDevinfoParser {

    static final String TOOL = "ibv_devinfo";
    private static final Pattern HCA = Pattern.compile("^hca_id:\\s*(\\S+)");
    private static final Pattern FIELD = Pattern.compile("^\\s+([a-z_]+):\\s*(.*?)\\s*$");
    private static final Pattern LEADING_INT = Pattern.compile("^(\\d{1,9})");

    public List<IbvDevice> parse(String output) {
        TextLines text = TextLines.of(output);
        List<IbvDevice> devices = new ArrayList<>();
        String hca = null;
        String fw = "";
        List<IbvPort> ports = new ArrayList<>();
        int[] port = null; // number, lid, smLid, mtu
        String state = "", layer = "";
        for (int i = 1; i <= text.lines().size(); i++) {
            String line = text.line(i);
            Matcher m;
            if ((m = HCA.matcher(line)).find()) {
                if (hca != null) devices.add(close(hca, fw, ports, port, state, layer));
                hca = m.group(1);
                fw = "";
                ports = new ArrayList<>();
                port = null;
            } else if (hca != null && (m = FIELD.matcher(line)).matches()) {
                String key = m.group(1), value = m.group(2);
                switch (key) {
                    case "fw_ver" -> fw = value;
                    case "port" -> {
                        if (port != null) ports.add(new IbvPort(port[0], state, layer, port[1], port[2], port[3]));
                        port = new int[] {leading(value, i, line), 0, 0, 0};
                        state = "";
                        layer = "";
                    }
                    case "state" -> state = value.split("\\s+")[0];
                    case "link_layer" -> layer = value;
                    case "port_lid" -> { if (port != null) port[1] = leading(value, i, line); }
                    case "sm_lid" -> { if (port != null) port[2] = leading(value, i, line); }
                    case "active_mtu" -> { if (port != null) port[3] = leading(value, i, line); }
                    default -> { /* device capabilities are not judged */ }
                }
            }
        }
        if (hca != null) devices.add(close(hca, fw, ports, port, state, layer));
        if (devices.isEmpty()) {
            int n = text.find("No IB devices found");
            if (n == 0) n = text.firstNonBlank();
            throw new ToolParseException(TOOL, n, text.line(n), "no hca_id block");
        }
        return devices;
    }

    private static IbvDevice close(String hca, String fw, List<IbvPort> ports, int[] port, String state, String layer) {
        if (port != null) ports.add(new IbvPort(port[0], state, layer, port[1], port[2], port[3]));
        return new IbvDevice(hca, fw, ports);
    }

    private static int leading(String value, int n, String line) {
        Matcher m = LEADING_INT.matcher(value);
        if (!m.find()) throw new ToolParseException(TOOL, n, line, "expected a number");
        return Integer.parseInt(m.group(1));
    }
}
