package dev.railyard.agent;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * rdma.port.state for ports that were ACTIVE while the agent watched and then left it: DEGRADED at once (it may come
 * back), UNHEALTHY once down for the {@code dropWindow}. Ports never seen ACTIVE are the snapshot check's business
 * (an uncabled spare port is not a drop).
 */
public final class LinkDropDetector implements Detector {

    public static final String ID = CheckId.RDMA_PORT_STATE.id();
    private static final int ACTIVE = 4;
    private static final int INIT = 2;

    private final Duration dropWindow;
    private final Set<String> seenActive = new HashSet<>();
    private final Map<String, Instant> downSince = new HashMap<>();

    public LinkDropDetector(Duration dropWindow) {
        this.dropWindow = dropWindow;
    }

    @Override
    public List<Finding> observe(NodeInventory sample, Instant now) {
        List<Finding> out = new ArrayList<>();
        for (var device : sample.rdmaDevices()) {
            for (RdmaPort p : device.ports()) {
                boolean active = p.state() instanceof Reading.Present<RdmaPort.PortState>(var s) && s.code() == ACTIVE;
                if (active) {
                    seenActive.add(p.ref());
                    downSince.remove(p.ref());
                    continue;
                }
                if (!seenActive.contains(p.ref())) continue;
                Instant since = downSince.computeIfAbsent(p.ref(), k -> now);
                Duration down = Duration.between(since, now);
                String observed = "was ACTIVE, now " + p.state().map(s -> s.code() + ": " + s.name()).describe()
                        + " for " + down.toSeconds() + " s";
                Severity severity = down.compareTo(dropWindow) >= 0 ? Severity.FAIL : Severity.WARN;
                out.add(Finding.of(ID, severity, p.ref(), observed, "ACTIVE (link drop window " + dropWindow.toSeconds() + " s)",
                        fix(p, severity == Severity.FAIL)));
            }
        }
        return out;
    }

    /** INIT on InfiniBand is a link that trained with no subnet manager to configure it; else the cable or peer. */
    private static String fix(RdmaPort p, boolean drain) {
        boolean init = p.isInfiniband() && p.state() instanceof Reading.Present<RdmaPort.PortState>(var s) && s.code() == INIT;
        if (!init) return DetectorFixes.rdmaPort(p.device(), p.port(), "the port left ACTIVE", drain);
        List<String> lines = new ArrayList<>(List.of("rdma link show " + ShellWord.of(p.device() + "/" + p.port()),
                "command -v sminfo >/dev/null && sminfo"));
        if (drain) lines.add(DetectorFixes.drain(p.device() + " port " + p.port() + ": no subnet manager"));
        lines.add(Fix.note("the link is up but no subnet manager configured " + p.device() + " port " + p.port()
                + ": run opensm on one host of the fabric (systemctl enable --now opensm) or the switch's own"));
        return Fix.lines(lines.toArray(String[]::new));
    }

    @Override
    public int held() {
        return seenActive.size() + downSince.size();
    }
}
