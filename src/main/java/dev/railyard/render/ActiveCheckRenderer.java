package dev.railyard.render;

import java.util.ArrayList;
import java.util.List;

/**
 * Scheduled active checks: a weekly {@code validate --quick} of the node by a systemd timer, run only while no GPU
 * process is on the node (an idle node; a busy one is skipped, not failed, and tried at the next firing), with its
 * result stored in the node's history. Where the spec has Slurm, also an sbatch script for a weekly maintenance
 * reservation that validates every node of the cluster through Slurm while no job can hold them.
 */
public final class ActiveCheckRenderer implements Renderer {

    static final String SERVICE = SystemdRenderer.DIR + "railyard-active-check.service";
    static final String TIMER = SystemdRenderer.DIR + "railyard-active-check.timer";
    static final String SBATCH = "etc/railyard/active-check.sbatch";
    /** The history the node's active checks go to, apart from any user's own. */
    static final String HISTORY = "/var/lib/railyard/history.db";
    static final String RESERVATION = "railyard-maint";

    @Override
    public List<RenderedFile> render(RenderInput in) {
        List<RenderedFile> files = new ArrayList<>(List.of(RenderedFile.of(SERVICE, service(in)),
                RenderedFile.of(TIMER, timer(in))));
        if (in.spec().slurm().isPresent()) files.add(new RenderedFile(SBATCH, sbatch(in), 0755));
        return files;
    }

    private static String service(RenderInput in) {
        return in.header("#")
                + "# Started by railyard-active-check.timer. ExecCondition skips the run (not a failure) while any\n"
                + "# process holds a GPU (fuser exits 0): an active check on a busy node would disturb the job and measure it.\n"
                + "[Unit]\n"
                + "Description=Railyard active check: validate --quick of this node while it is idle\n"
                + "Wants=network-online.target\n"
                + "After=network-online.target\n\n"
                + "[Service]\n"
                + "Type=oneshot\n"
                + "StateDirectory=railyard/active-check\n"
                + "WorkingDirectory=/var/lib/railyard/active-check\n"
                + "ExecCondition=/bin/sh -c '! fuser -s /dev/nvidia[0-9]*'\n"
                + "ExecStart=" + SystemdRenderer.RAILYARD_BIN + " validate --quick --db " + HISTORY + "\n"
                + "# RDMA probes register memory; units do not read limits.d.\n"
                + SystemdRenderer.MEMLOCK + "\n"
                + "TimeoutStartSec=1h\n";
    }

    private static String timer(RenderInput in) {
        return in.header("#")
                + "# Enable with: systemctl enable --now railyard-active-check.timer\n"
                + "[Unit]\n"
                + "Description=Weekly Railyard active check of this node\n\n"
                + "[Timer]\n"
                + "OnCalendar=Sun *-*-* 03:00:00\n"
                + "# nodes of one cluster spread over two hours rather than all loading the fabric at once\n"
                + "RandomizedDelaySec=2h\n"
                + "# a node that was off on Sunday night runs the missed check when it comes back\n"
                + "Persistent=true\n\n"
                + "[Install]\n"
                + "WantedBy=timers.target\n";
    }

    private static String sbatch(RenderInput in) {
        String nodes = HostList.compress(in.spec().nodes().stream().map(n -> n.name()).toList());
        return "#!/bin/bash\n"
                + in.clusterHeader("#")
                + "# The weekly maintenance window, once (as root): its first window opens at the coming midnight, then every\n"
                + "# week at that time; MAINT keeps its nodes out of the accounting of idle time:\n"
                + "#   scontrol create reservation ReservationName=" + RESERVATION + " StartTime=midnight Duration=02:00:00 \\\n"
                + "#     Flags=MAINT,WEEKLY,IGNORE_JOBS Nodes=" + nodes + " Users=root\n"
                + "# Then submit this script once: it runs inside the window and, as it starts, queues itself for next week.\n"
                + "#SBATCH --job-name=railyard-active-check\n"
                + "#SBATCH --reservation=" + RESERVATION + "\n"
                + "#SBATCH --nodes=" + in.spec().nodes().size() + "\n"
                + "#SBATCH --ntasks-per-node=1\n"
                + "#SBATCH --exclusive\n"
                + "#SBATCH --time=01:30:00\n"
                + "#SBATCH --output=/var/lib/railyard/active-check/slurm-%j.out\n"
                + "sbatch --begin=now+7days \"$0\"\n"
                + "exec " + SystemdRenderer.RAILYARD_BIN + " validate --spec " + SystemdRenderer.SPEC_ON_NODE
                + " --launcher slurm --quick --db " + HISTORY + " --out /var/lib/railyard/active-check/\"$SLURM_JOB_ID\"\n";
    }
}
