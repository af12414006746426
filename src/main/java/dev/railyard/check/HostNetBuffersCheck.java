package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;

/** host.net.buffers: net.core.rmem_max / wmem_max at least 268435456 (256 MiB, what RDMA and TCP tuning guides give 100G links), or the spec's expect value. */
public final class HostNetBuffersCheck implements Check {

    static final String ID = CheckId.HOST_NET_BUFFERS.id();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        long want = in.spec().map(s -> s.expect().netBufferBytes()).orElse(ClusterSpec.Expect.defaults().netBufferBytes());
        List<Finding> out = new ArrayList<>();
        out.add(judge(in.node(), "net.core.rmem_max", in.inventory().host().rmemMax(), want));
        out.add(judge(in.node(), "net.core.wmem_max", in.inventory().host().wmemMax(), want));
        return out;
    }

    private static Finding judge(String node, String key, Reading<Long> r, long want) {
        String subject = node + " " + key;
        String expected = ">= " + want;
        if (!(r instanceof Reading.Present<Long>(Long v))) return Finding.unknown(ID, subject, r, expected);
        if (v >= want) return Finding.pass(ID, subject, String.valueOf(v), expected);
        // apply now, then persist in the file 'railyard render' writes (sysctl.d), one command a line
        String fix = "sysctl -w " + key + "=" + want + "\n"
                + "echo \"" + key + " = " + want + "\" | tee -a /etc/sysctl.d/90-railyard-rdma.conf";
        return Finding.of(ID, Severity.WARN, subject, String.valueOf(v), expected, fix);
    }
}
