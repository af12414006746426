package dev.railyard.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** agent --once prints a fix of several lines with each line under the first, as check does. */
class AgentOnceFixLinesTest {

    @Test
    void everyLineOfAFixKeepsTheIndent() {
        String fix = AgentCommand.fixLines("rdma link show mlx5_0/1\ngrep . /sys/class/infiniband/mlx5_0/ports/1/counters/*\n"
                + "scontrol update nodename=n1 state=resume");
        assertThat(fix).isEqualTo("    fix: rdma link show mlx5_0/1\n"
                + "         grep . /sys/class/infiniband/mlx5_0/ports/1/counters/*\n"
                + "         scontrol update nodename=n1 state=resume");
        assertThat(AgentCommand.fixLines("ip link set dev eth0 up")).isEqualTo("    fix: ip link set dev eth0 up");
    }
}
