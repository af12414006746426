package dev.railyard.agent;

import java.io.IOException;
import java.time.Duration;

/**
 * Drives an agent over an {@link AgentTree} through simulated time, the way a long-running node looks: traffic
 * counters rising every step, a symbol error now and then, Xid lines every {@code xidEvery} steps and a port that
 * goes down and comes back (with two carrier changes on eth0) every {@code flapEvery} steps.
 */
final class AgentSoak {

    private final AgentTree tree;
    private final Agent agent;
    private final Duration step;
    private long packets = 1_000_000;
    private long symbolErrors;
    private long carrierChanges = 2;
    private long steps;

    AgentSoak(AgentTree tree, Agent agent, Duration step) {
        this.tree = tree;
        this.agent = agent;
        this.step = step;
    }

    /** Runs {@code n} steps, with {@code xidLines} Xid lines every {@code xidEvery} steps; returns the last state. */
    AgentState run(int n, int xidEvery, int xidLines, int flapEvery) throws IOException {
        AgentState last = agent.state();
        for (int i = 0; i < n; i++) {
            steps++;
            tree.clock.advance(step);
            packets += 123_457;
            tree.write(AgentTree.PORT + "/counters/port_rcv_packets", packets + "\n");
            tree.write(AgentTree.PORT + "/counters/port_xmit_packets", packets + "\n");
            if (steps % 97 == 0) tree.write(AgentTree.PORT + "/counters/symbol_error", ++symbolErrors + "\n");
            for (int x = 0; steps % xidEvery == 0 && x < xidLines; x++) {
                tree.appendKernelLog("[" + steps * step.toSeconds() + ".000001] NVRM: Xid (PCI:0000:1b:00): 13, pid=4242, "
                        + "name=python3, Graphics SM Warp Exception on (GPC 0, TPC 1, SM 0)");
            }
            if (steps % flapEvery == 0) {
                tree.write(AgentTree.PORT + "/state", "1: DOWN\n");
                carrierChanges += 1;
                tree.write(AgentTree.ETH0 + "/carrier_changes", carrierChanges + "\n");
            } else if (steps % flapEvery == 1) {
                tree.write(AgentTree.PORT + "/state", "4: ACTIVE\n");
                carrierChanges += 1;
                tree.write(AgentTree.ETH0 + "/carrier_changes", carrierChanges + "\n");
            }
            last = agent.tick();
        }
        return last;
    }
}
