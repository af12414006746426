package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.check.XidCatalog;
import dev.railyard.model.CheckId;
import dev.railyard.model.Gpu;
import dev.railyard.model.Severity;
import dev.railyard.model.XidEvent;

import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * gpu.xid: Xid errors the NVIDIA driver logged, judged by {@link XidCatalog} (severity and action per code), and the
 * other GPU faults diagnose files under this ID (a GPU hang without an Xid, DCGM's diagnostic tests). The node check,
 * the agent (which runs it on each sample) and diagnose's kernel log all take the severity, the fix and the GPU's
 * name from here: a GPU is named by its normalised PCI address ("0000:3b:00.0"), and nvidia-smi selects it by that
 * address, so a line read from the log and the same GPU in the inventory make one subject and one fix.
 */
public final class GpuXidRule implements Rule {

    public static final CheckId ID = CheckId.GPU_XID;
    public static final String EXPECTED = "no Xid errors";

    GpuXidRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "Xid events of the kernel log (code, message, GPU); diagnose: a GPU hang without an Xid, dcgmi diag's "
                + "test results";
    }

    @Override
    public String thresholds() {
        return "the Xid catalog's severity per code (" + XidCatalog.size() + " codes; Fatal NVLink and Xid 154's "
                + "requested action raise it)";
    }

    @Override
    public String severities() {
        return "per code: FAIL, WARN or INFO, the worst of a GPU's lines of one code; an unknown code: WARN; a GPU "
                + "hang: FAIL; DCGM: failed FAIL, warned WARN, skipped INFO; the kernel log unread: UNKNOWN";
    }

    @Override
    public String fix() {
        return "the catalog's action per code (reset, drain, reboot, RMA), with the GPU's PCI address and the node; "
                + "none for an INFO";
    }

    /** The GPU a kernel line's "0000:3b:00" names, as sysfs and nvidia-smi -i write it: "0000:3b:00.0". */
    public static String address(XidEvent e) {
        String a = XidCatalog.busId(e.pciAddress().trim()).toLowerCase(Locale.ROOT);
        return a.indexOf(':') == 8 && a.startsWith("0000") ? a.substring(4) : a;
    }

    /** The subject: the inventory's name of the GPU where it lists it, else "GPU" and its normalised address. */
    public static String subject(XidEvent e, List<Gpu> gpus) {
        return gpus.stream().filter(g -> e.concerns(g.pciAddress())).findFirst().map(Gpu::subject)
                .orElse("GPU " + address(e));
    }

    /** The catalog's entry for the worst of one GPU's lines of one code (a Fatal NVLink line outranks the others). */
    public static XidCatalog.Entry worst(Collection<XidEvent> sameCode) {
        XidEvent w = sameCode.stream().reduce(GpuXidRule::worse).orElseThrow();
        return XidCatalog.judge(w.xid(), w.message());
    }

    /** Of a line kept so far and a later one, the one to judge by: the later where it is at least as bad. */
    public static XidEvent worse(XidEvent kept, XidEvent later) {
        return XidCatalog.judge(later.xid(), later.message()).severity()
                .atLeast(XidCatalog.judge(kept.xid(), kept.message()).severity()) ? later : kept;
    }

    /**
     * The verdict on one GPU's lines of one code: the catalog's severity, and its action for that GPU's PCI address
     * and {@code node} (a shell word: the node's name, or "$(hostname -s)" where the node is not known). An INFO
     * (an Xid that only follows another) carries no fix.
     */
    public static Verdict verdict(Collection<XidEvent> sameCode, String observed, String node) {
        XidCatalog.Entry entry = worst(sameCode);
        XidEvent any = sameCode.iterator().next();
        String fix = entry.severity() == Severity.INFO ? ""
                : entry.remediation(ShellWord.of(address(any)), node);
        return new Verdict(ID, entry.severity(), observed, EXPECTED, fix);
    }

    /** "GPU has fallen off the bus" with no Xid line: Xid 79's verdict, for no GPU in particular. */
    public static Verdict fallenWithoutXid(String line, String node) {
        XidCatalog.Entry a = XidCatalog.judge(79, line);
        return new Verdict(ID, a.severity(), a.name() + " (no Xid line printed)", EXPECTED, a.remediation("", node));
    }

    /** A GPU the driver found hung and reset (amdgpu prints no Xid): the job on it was lost. */
    public static Verdict hang(String observed) {
        return new Verdict(ID, Severity.FAIL, observed, EXPECTED, Fix.lines("dmesg | grep -E 'amdgpu|drm' | tail -40",
                Fix.note("one reset after a faulty job is the job's fault; resets that repeat under different jobs "
                        + "call for a driver and firmware update, then hardware inspection")));
    }

    /** One of DCGM's diagnostic tests by its result ("Pass", "Fail", "Warn", "Skip"). */
    public static Verdict dcgmTest(String test, String result, String note) {
        String r = result.toLowerCase(Locale.ROOT);
        String said = note.isBlank() ? "" : ": " + note.strip();
        String fix = Fix.lines("dcgmi diag -r 3 -j   # the same run with DCGM's reasons per GPU",
                "dmesg | grep -E 'NVRM|Xid'", Fix.note("follow DCGM's advice above; a test that fails again on "
                        + "the same GPU after a reset means that GPU needs hardware inspection"));
        if (r.startsWith("fail")) {
            return new Verdict(ID, Severity.FAIL, "DCGM's " + test + " test failed (" + result + ")" + said, "", fix);
        }
        if (r.startsWith("warn")) return new Verdict(ID, Severity.WARN, "DCGM warns on " + test + said, "", fix);
        if (r.startsWith("skip")) return new Verdict(ID, Severity.INFO, "DCGM skipped " + test + said, "", "");
        if (r.startsWith("pass") && !note.isBlank()) {
            return new Verdict(ID, Severity.INFO, test + " passed; DCGM notes: " + note.strip(), "", "");
        }
        return new Verdict(ID, Severity.PASS, test + " passed", "", "");
    }
}
