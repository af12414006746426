package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.HostInfo.MemlockLimit;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.List;

/** host.memlock: RDMA pins memory; a finite RLIMIT_MEMLOCK makes ibv_reg_mr (and NCCL over IB/RoCE) fail. */
public final class HostMemlockCheck implements Check {

    static final String ID = CheckId.HOST_MEMLOCK.id();
    // limits.d applies at the next login; systemd services (slurmd) read DefaultLimitMEMLOCK instead.
    static final String FIX = Fix.lines(
            "printf '* soft memlock unlimited\\n* hard memlock unlimited\\n' > /etc/security/limits.d/90-rdma-memlock.conf",
            "mkdir -p /etc/systemd/system.conf.d && printf '[Manager]\\nDefaultLimitMEMLOCK=infinity\\n' > "
                    + "/etc/systemd/system.conf.d/90-rdma-memlock.conf && systemctl daemon-reexec",
            Fix.note("log in again (and restart slurmd or other services) for the new limit to apply"));

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        // Without RDMA nothing pins large buffers, so a finite limit is not a problem worth reporting.
        if (in.inventory().rdmaDevices().isEmpty()) return List.of();
        String subject = in.node();
        Reading<MemlockLimit> r = in.inventory().host().memlock();
        if (!(r instanceof Reading.Present<MemlockLimit>(MemlockLimit m))) {
            return List.of(Finding.unknown(ID, subject, r, "unlimited"));
        }
        if (m.unlimited()) return List.of(Finding.pass(ID, subject, "unlimited", "unlimited"));
        // HostCollector clamps limits past 2^63 (procfs shows 18446744073708503040) to Long.MAX_VALUE: no
        // registration can reach them, so telling the user to raise it would be a false FAIL.
        if (m.bytes() == Long.MAX_VALUE) {
            return List.of(Finding.pass(ID, subject, "above 2^63 bytes (as good as unlimited)", "unlimited"));
        }
        return List.of(Finding.of(ID, Severity.FAIL, subject, Bytes.human(m.bytes()), "unlimited", FIX));
    }
}
