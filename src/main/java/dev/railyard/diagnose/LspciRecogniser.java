package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.check.Fix;
import dev.railyard.check.rules.HostPcieLinkRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * lspci -vv link status: LnkSta below LnkCap (fewer lanes or a slower generation than the device can run), or lspci's
 * own "(downgraded)" marks where the paste has no LnkCap. Judged as the kernel's "limited by" line is
 * (host.pcie.link): a narrower or slower link is a WARN naming both; a link at its capability is a PASS.
 */
public record LspciRecogniser() implements Recogniser {

    private static final Pattern CAP = Pattern.compile("LnkCap:\\s*(?:Port #\\d+,\\s*)?Speed ([\\d.]+)GT/s,?\\s*Width x(\\d+)");
    private static final Pattern STA = Pattern.compile("LnkSta:\\s*Speed ([\\d.]+)GT/s( \\(downgraded\\))?,?\\s*Width x(\\d+)( \\(downgraded\\))?");
    private static final Pattern DEVICE = Pattern.compile("^([0-9a-f]{2,4}:[0-9a-f]{2}(?::[0-9a-f]{2})?\\.[0-7]) (.*)$");

    @Override
    public ToolKind tool() {
        return ToolKind.LSPCI;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("LnkSta:", "Capabilities: [");
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> l.contains("LnkSta:") && STA.matcher(l).find()) || cutBlock(text);
    }

    /**
     * An lspci -vv block cut before its link lines: a device line ("da:00.0 3D controller ...") followed by the
     * block's own "Control: I/O" and "Capabilities: [nn]" lines.
     */
    private static boolean cutBlock(TextLines text) {
        boolean device = false, control = false, capability = false;
        for (String l : text.lines()) {
            if (!device && DEVICE.matcher(l.strip()).find()) device = true;
            else if (device && l.strip().startsWith("Control: I/O")) control = true;
            else if (device && CAPABILITY.matcher(l).find()) capability = true;
        }
        return device && control && capability;
    }

    private static final Pattern CAPABILITY = Pattern.compile("^\\s+Capabilities: \\[[0-9a-f]{2,3}(?: v\\d)?]");

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        List<Diagnosis> out = new ArrayList<>();
        List<Measurement> numbers = new ArrayList<>();
        String device = "device";
        double capSpeed = 0;
        int capWidth = 0;
        List<String> lines = text.lines();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            Matcher d = DEVICE.matcher(l);
            if (d.find()) {
                device = d.group(1);
                capSpeed = 0;
                capWidth = 0;
            }
            Matcher c = CAP.matcher(l);
            if (c.find()) {
                capSpeed = Double.parseDouble(c.group(1));
                capWidth = Integer.parseInt(c.group(2));
            }
            Matcher s = STA.matcher(l);
            if (!s.find()) continue;
            double speed = Double.parseDouble(s.group(1));
            int width = Integer.parseInt(s.group(3));
            numbers.add(new Measurement("LnkSta speed", speed, "GT/s"));
            numbers.add(new Measurement("LnkSta width", width, "lanes"));
            boolean slower = capSpeed > 0 ? speed < capSpeed : s.group(2) != null;
            boolean narrower = capWidth > 0 ? width < capWidth : s.group(4) != null;
            String cap = capSpeed > 0 ? fmt(capSpeed) + "GT/s x" + capWidth : "its maximum (lspci marks it downgraded)";
            String now = fmt(speed) + "GT/s x" + width;
            if (!slower && !narrower) {
                out.add(Diagnosis.of(HostPcieLinkRule.atCapability("link at " + now
                        + (capSpeed > 0 ? ", its capability" : "")), device, i + 1, l, "lspci -vv"));
                continue;
            }
            String why = narrower
                    ? "the link trained to fewer lanes than the device has: a slot wired narrower than it is long, "
                            + "a riser or bifurcation setting, or a lane that failed training"
                    : "the link runs a slower generation than it can: an idle GPU drops to 2.5GT/s to save power "
                            + "(look again under load); a NIC or a loaded GPU that stays slow points at the slot, a "
                            + "riser or retimer, or the BIOS link-speed setting";
            out.add(Diagnosis.of(HostPcieLinkRule.below("LnkSta " + now + " below " + cap + ": " + why,
                    device.equals("device") ? "" : device), device, i + 1, l, "lspci -vv"));
        }
        if (out.isEmpty()) {
            // the block ends before LnkCap/LnkSta: a reading of the link needs those two lines
            int at = 1;
            for (int i = 0; i < lines.size(); i++) {
                if (DEVICE.matcher(lines.get(i).strip()).find()) {
                    at = i + 1;
                    device = DEVICE.matcher(lines.get(i).strip()).results().findFirst().map(m -> m.group(1)).orElse(device);
                    break;
                }
            }
            out.add(Diagnosis.of(CheckId.HOST_PCIE_LINK.id(), Severity.UNKNOWN, device, "the lspci -vv block ends "
                            + "before its LnkCap and LnkSta lines: no link speed or width to judge",
                    Fix.lines((device.equals("device") ? "lspci -vv" : "lspci -vv -s " + device)
                            + " | grep -E '^[0-9a-f]|LnkCap:|LnkSta:'"), at, lines.get(at - 1), "lspci -vv"));
        }
        return new ToolReading(out, Parsed.none().withNumbers(numbers));
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
