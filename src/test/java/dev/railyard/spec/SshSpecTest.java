package dev.railyard.spec;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;
import dev.railyard.model.SshOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The spec's ssh section and a node's own: merged per node, and each bad value named with file:line:key. */
class SshSpecTest {

    static final String SPEC = """
            cluster: lab
            ssh: {user: ops, port: 2222, identity_file: ~/.ssh/lab_ed25519, known_hosts: /etc/railyard/known_hosts}
            nodes:
              - {name: n1, address: 10.0.0.1}
              - name: n2
                address: 10.0.0.2
                ssh: {port: 22, config_file: ./n2_ssh_config}
            """;

    @Test
    void nodeSectionOverridesTheClusterOne() {
        ClusterSpec spec = new SpecReader().read("cluster.yaml", SPEC);
        ClusterSpec.Node n1 = spec.node("n1").orElseThrow();
        ClusterSpec.Node n2 = spec.node("n2").orElseThrow();
        assertThat(spec.sshFor(n1)).isEqualTo(new SshOptions(Optional.of("ops"), Optional.of(2222),
                Optional.of("~/.ssh/lab_ed25519"), Optional.empty(), Optional.of("/etc/railyard/known_hosts")));
        assertThat(spec.sshFor(n2)).isEqualTo(new SshOptions(Optional.of("ops"), Optional.of(22),
                Optional.of("~/.ssh/lab_ed25519"), Optional.of("./n2_ssh_config"),
                Optional.of("/etc/railyard/known_hosts")));
    }

    @Test
    void noSectionLeavesEverythingToSshConfig() {
        ClusterSpec spec = new SpecReader().read("cluster.yaml", "cluster: lab\nnodes: [{name: n1, address: n1}]\n");
        assertThat(spec.sshFor(spec.nodes().getFirst())).isEqualTo(SshOptions.none());
    }

    @Test
    void sshUserForRenderedConfigIsTheLoginUserWhenNoSshUserIsSet() {
        ClusterSpec spec = new SpecReader().read("cluster.yaml",
                "cluster: lab\nssh_user: geo\nnodes:\n  - {name: n1, address: n1}\n"
                        + "  - {name: n2, address: n2, ssh: {user: root}}\n");
        assertThat(spec.sshFor(spec.node("n1").orElseThrow()).user()).contains("geo");
        assertThat(spec.sshFor(spec.node("n2").orElseThrow()).user()).contains("root");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "port: 2222|port: 70000|cluster.yaml:2: ssh.port: 70000 is out of range 1..65535",
            "user: ops|user: 'ops -oProxyCommand=x'|cluster.yaml:2: ssh.user: \"ops -oProxyCommand=x\" is not a valid "
                    + "user name (letters, digits, '_', '.', '-'; at most 32)",
            "~/.ssh/lab_ed25519|'~/my keys/id'|cluster.yaml:2: ssh.identity_file: \"~/my keys/id\" is not a usable "
                    + "path (letters, digits and _ . / @ + , = : - only; ~/ for your home)",
            "/etc/railyard/known_hosts|/etc/%h|cluster.yaml:2: ssh.known_hosts: \"/etc/%h\" is not a usable path "
                    + "(letters, digits and _ . / @ + , = : - only; ~/ for your home)",
            "port: 22,|prot: 22,|cluster.yaml:7: nodes[1].ssh.prot: unknown key; did you mean \"port\"?",
            "ssh: {user|ssh: {strict_host_key_checking: no, user|cluster.yaml:2: ssh.strict_host_key_checking: "
                    + "unknown key; allowed: user, port, identity_file, config_file, known_hosts",
    })
    void badValuesNameFileLineAndKey(String from, String to, String message) {
        String text = SPEC.replace(from, to);
        assertThat(text).isNotEqualTo(SPEC);
        assertThatThrownBy(() -> new SpecReader().read("cluster.yaml", text))
                .isInstanceOf(RailyardException.Usage.class)
                .hasMessage(message);
    }
}
