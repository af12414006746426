package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.check.XidCatalog;
import dev.railyard.model.CheckId;
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

    static List<Diagnosis> earlier(TextLines text, List<XidEvent> xids, String node) {
        Map<String, XidEvent> byCause = new LinkedHashMap<>();
        for (XidEvent x : xids) {
            Matcher m = PREVIOUS.matcher(x.message());
            if (!m.find()) continue;
            int code = Integer.parseInt(m.group(1));
            boolean shown = xids.stream().anyMatch(o -> o.xid() == code && o.pciAddress().equals(x.pciAddress()));
            if (!shown) byCause.putIfAbsent(x.pciAddress() + "/" + code, x);
        }
        List<Diagnosis> out = new ArrayList<>();
        byCause.forEach((key, x) -> {
            int code = Integer.parseInt(key.substring(key.lastIndexOf('/') + 1));
            XidCatalog.Entry a = XidCatalog.judge(code, x.message());
            out.add(Diagnosis.of(CheckId.GPU_XID.id(), a.severity(), "GPU " + x.pciAddress(), "Xid " + code + ": "
                            + a.name() + ", named by the later Xid " + x.xid() + " as its cause",
                    a.remediation(XidCatalog.busId(x.pciAddress()), node), text.lines().indexOf(x.line()) + 1,
                    x.line(), "Xid catalog"));
        });
        return out;
    }
}
