package dev.railyard.diagnose;

import dev.railyard.check.rules.GpuXidRule;
import dev.railyard.check.rules.Verdict;
import dev.railyard.model.XidEvent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * "Xid 45 … caused by previous Xid 149": the driver names the error that started the chain, which a paste of the
 * later lines may not hold. The earlier code is judged as if its own line were there, once per GPU and code.
 */
final class XidCauses {

    private static final Pattern PREVIOUS = Pattern.compile("caused by previous Xid (\\d{1,5})");

    private XidCauses() {
    }

    static List<Diagnosis> earlier(java.util.Collection<KernelLogSummary.Xid> firsts, String node) {
        Map<String, KernelLogSummary.Xid> byCause = new LinkedHashMap<>();
        for (KernelLogSummary.Xid f : firsts) {
            XidEvent x = f.first();
            Matcher m = PREVIOUS.matcher(x.message());
            if (!m.find()) continue;
            int code = Integer.parseInt(m.group(1));
            boolean shown = firsts.stream().anyMatch(o -> o.first().xid() == code
                    && o.first().pciAddress().equals(x.pciAddress()));
            if (!shown) byCause.putIfAbsent(x.pciAddress() + "/" + code, f);
        }
        List<Diagnosis> out = new ArrayList<>();
        byCause.forEach((key, f) -> {
            XidEvent x = f.first();
            int code = Integer.parseInt(key.substring(key.lastIndexOf('/') + 1));
            XidEvent cause = new XidEvent(x.timestamp(), x.pciAddress(), code, x.message(), x.line());
            String observed = "Xid " + code + ": " + GpuXidRule.worst(List.of(cause)).name() + ", named by the later Xid "
                    + x.xid() + " as its cause";
            Verdict v = GpuXidRule.verdict(List.of(cause), observed, node);
            out.add(Diagnosis.of(v, "GPU " + GpuXidRule.address(x),
                    f.lineNumber(), x.line(), "Xid catalog"));
        });
        return out;
    }
}
