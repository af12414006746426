package dev.railyard.agent;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Subjects of real findings, as the checks write them, and the component kind the agent files them under. */
class ComponentKindTest {

    @ParameterizedTest
    @CsvSource({
            "GPU0 (0000:00:06.0), GPU",
            "GPU at PCI:0000:1b:00, GPU",
            "mlx5_0:1, PORT",
            "mlx5_bond_0:1, PORT",
            "ens6d1, NETDEV",
            "eth0, NETDEV",
            "vm, NODE",
            "vm net.core.rmem_max, NODE",
            "vmx, NETDEV"})
    void kindOfSubject(String subject, ComponentKind kind) {
        assertThat(ComponentKind.ofSubject(subject, "vm")).isEqualTo(kind);
    }
}
