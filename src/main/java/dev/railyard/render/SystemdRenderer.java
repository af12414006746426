package dev.railyard.render;

import java.util.ArrayList;
import java.util.List;

/**
 * systemd units: the railyard agent, a oneshot that keeps the spec's unused NICs down (a NIC that comes up on its own steals routes), and a slurmd
 * drop-in for unlimited locked memory when the cluster runs Slurm and the node's installed slurmd.service does not
 * set it already (Slurm's own unit, which Debian and RHEL ship, does; render without a root leaves it out).
 */
public final class SystemdRenderer implements Renderer {

    static final String DIR = "etc/systemd/system/";
    static final String AGENT = DIR + "railyard-agent.service";
    static final String NICS_DOWN = DIR + "railyard-netdevs-down.service";
    static final String SLURMD_DROPIN = DIR + "slurmd.service.d/railyard-memlock.conf";
    /** Where the spec copy lands and where the railyard launcher is expected on the node. */
    static final String SPEC_ON_NODE = "/" + SpecCopyRenderer.PATH;
    static final String RAILYARD_BIN = "/usr/local/bin/railyard";
    static final String MEMLOCK = "LimitMEMLOCK=infinity";

    @Override
    public List<RenderedFile> render(RenderInput in) {
        List<RenderedFile> files = new ArrayList<>();
        files.add(RenderedFile.of(AGENT, agent(in)));
        if (!in.node().disableNetdevs().isEmpty()) files.add(RenderedFile.of(NICS_DOWN, netdevsDown(in)));
        // Slurm's own slurmd.service (Debian's, RHEL's) already sets the limit: a drop-in only where the node's unit lacks it
        if (in.spec().slurm().isPresent() && in.system().slurmdUnit().isPresent() && !in.system().slurmdSets(MEMLOCK)) {
            files.add(RenderedFile.of(SLURMD_DROPIN, slurmd(in)));
        }
        return files;
    }

    private static String agent(RenderInput in) {
        return in.header("#")
                + "[Unit]\n"
                + "Description=Railyard health agent (GPU, RDMA and host health; Prometheus metrics)\n"
                + "Wants=network-online.target\n"
                + "After=network-online.target\n\n"
                + "[Service]\n"
                + "ExecStart=" + RAILYARD_BIN + " agent --spec " + SPEC_ON_NODE + " --node " + in.node().name()
                + " --listen 0.0.0.0:" + in.agentPort() + "\n"
                + "Restart=on-failure\n"
                + "RestartSec=5\n"
                + "# RDMA probes register memory; units do not read limits.d.\n"
                + "LimitMEMLOCK=infinity\n\n"
                + "[Install]\n"
                + "WantedBy=multi-user.target\n";
    }

    private static String netdevsDown(RenderInput in) {
        StringBuilder s = new StringBuilder(in.header("#"));
        s.append("""
                # The DGX Spark guide ran a script that sent every error to /dev/null, so a renamed NIC failed silently. Here
                # each NIC is one ExecStart: '-' lets the others run when one is missing, and the journal keeps why.
                [Unit]
                Description=Keep NICs that carry no fabric traffic down (railyard)
                After=network.target

                [Service]
                Type=oneshot
                RemainAfterExit=yes
                """);
        for (String nic : in.node().disableNetdevs()) {
            s.append("ExecStart=-/usr/sbin/ip link set dev ").append(nic).append(" down\n");
        }
        s.append("\n[Install]\nWantedBy=multi-user.target\n");
        return s.toString();
    }

    private static String slurmd(RenderInput in) {
        return in.header("#")
                + "# Jobs inherit slurmd's locked-memory limit, not limits.d: without this, NCCL in a job cannot\n"
                + "# register memory and falls back to sockets. This node's slurmd.service does not set it.\n"
                + "[Service]\n"
                + "LimitMEMLOCK=infinity\n";
    }
}
