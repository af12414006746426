package dev.railyard.cluster;

import dev.railyard.model.SshOptions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The ssh argv from spec options, and the words of ssh's failures as ssh 9.2 prints them. */
class SshCommandTest {

    static final SshOptions ALL = new SshOptions(Optional.of("ops"), Optional.of(2222), Optional.of("~/.ssh/lab"),
            Optional.of("/etc/railyard/ssh_config"), Optional.of("/etc/railyard/known_hosts"));

    @Test
    void onlyWhatTheSpecSetsIsPassedAndHostKeysAreNeverUnchecked() {
        String home = System.getProperty("user.home");
        assertThat(new SshCommand("ssh", "10.0.0.3", ALL).argv("'true'", Duration.ofSeconds(60))).containsExactly(
                "ssh", "-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=5",
                "-o", "ServerAliveCountMax=3", "-F", "/etc/railyard/ssh_config", "-l", "ops", "-p", "2222",
                "-i", home + "/.ssh/lab", "-o", "IdentitiesOnly=yes",
                "-o", "UserKnownHostsFile=/etc/railyard/known_hosts", "--", "10.0.0.3", "'true'");
        assertThat(new SshCommand("ssh", "gpuserver1", SshOptions.none()).argv("'true'", Duration.ofSeconds(3)))
                .containsExactly("ssh", "-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=3",
                        "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3", "--", "gpuserver1", "'true'")
                .noneMatch(a -> a.contains("StrictHostKeyChecking"));
    }

    @Test
    void stepsGoThroughTheMasterAndReachMakesANewConnection() {
        SshCommand c = new SshCommand("ssh", "10.0.0.3", SshOptions.none());
        assertThat(c.argv("'true'", Duration.ofSeconds(3), "/tmp/d/%C")).containsSubsequence(
                "-o", "ControlMaster=no", "-o", "ControlPath=/tmp/d/%C", "--", "10.0.0.3", "'true'");
        assertThat(c.argv("'true'", Duration.ofSeconds(3), "none")).containsSubsequence("-o", "ControlPath=none", "--");
        assertThat(c.masterArgv("/tmp/d/%C", Duration.ofMinutes(2), Duration.ofSeconds(30), "/tmp/d/m.log"))
                .containsSubsequence("-M", "-N", "-f", "-E", "/tmp/d/m.log", "-o", "ControlPath=/tmp/d/%C",
                        "-o", "ControlPersist=120", "--", "10.0.0.3")
                .endsWith("10.0.0.3");
        assertThat(c.exitArgv("/tmp/d/%C")).containsSubsequence("-o", "ControlPath=/tmp/d/%C", "-O", "exit", "--", "10.0.0.3");
    }

    @Test
    void addressesThatCouldBeOptionsAreRefused() {
        assertThat(new SshCommand("ssh", "gpu_01", SshOptions.none()).argv("'true'", Duration.ofSeconds(3)))
                .as("an ssh_config alias with '_'").contains("gpu_01");
        for (String bad : List.of("-oProxyCommand=x", "a b", "host;rm", "", "-gpu_01", "_-x-")) {
            assertThatThrownBy(() -> new SshCommand("ssh", bad, SshOptions.none()))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void changedHostKeySaysHowToReplaceItAfterChecking() {
        String stderr = """
                @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
                @    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @
                @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
                IT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!
                Host key for 10.0.0.3 has changed and you have requested strict checking.
                Host key verification failed.
                """;
        SshCommand cmd = new SshCommand("ssh", "10.0.0.3", ALL);
        assertThat(cmd.unreachable(255, stderr)).contains("the host key of 10.0.0.3 has changed since it was "
                + "recorded (a reinstalled node, or someone in between); if the new key is right, remove the old one "
                + "with: ssh-keygen -R 10.0.0.3 -f /etc/railyard/known_hosts and add the new one with: "
                + "ssh-keyscan -p 2222 10.0.0.3 >> /etc/railyard/known_hosts");
    }

    @Test
    void refusedLoginSaysWhatToSet() {
        SshCommand cmd = new SshCommand("ssh", "10.0.0.3", SshOptions.none());
        assertThat(cmd.unreachable(255, "ops@10.0.0.3: Permission denied (publickey).\n")).contains(
                "ssh: ops@10.0.0.3: Permission denied (publickey). (set ssh.user and ssh.identity_file in the spec, "
                        + "or load the key into ssh-agent; railyard runs ssh with BatchMode=yes, so it cannot ask "
                        + "for a password)");
        assertThat(cmd.unreachable(1, "ops@10.0.0.3: Permission denied (publickey).\n"))
                .as("exit 1 is the step's own: a FAIL finding").isEmpty();
    }

    /** ssh-keygen's own keys: one with a passphrase, one without, and a key file that is not there. */
    @Test
    void refusedLoginWithAPassphraseKeyOrAMissingKeySaysSo(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/ssh-keygen")), "needs ssh-keygen");
        for (String[] k : new String[][] {{"locked", "secret phrase", "ed25519"}, {"open", "", "ed25519"},
                {"locked-rsa", "secret phrase", "rsa"}}) {
            Process p = new ProcessBuilder("ssh-keygen", "-q", "-t", k[2], "-N", k[1], "-f", dir.resolve(k[0]).toString())
                    .redirectErrorStream(true).start();
            assertThat(p.waitFor()).isZero();
        }
        String denied = "root@10.0.0.3: Permission denied (publickey).\n";
        for (String locked : List.of("locked", "locked-rsa")) {
            String key = dir.resolve(locked).toString();
            SshCommand cmd = new SshCommand("ssh", "10.0.0.3", new SshOptions(Optional.empty(), Optional.empty(),
                    Optional.of(key), Optional.empty(), Optional.empty()));
            assertThat(cmd.unreachable(255, denied)).contains("ssh: root@10.0.0.3: Permission denied (publickey). "
                    + "(the key " + key + " is protected by a passphrase, and railyard runs ssh with BatchMode=yes, so "
                    + "nobody can type it: load the key with ssh-add " + key + " and run railyard where SSH_AUTH_SOCK "
                    + "reaches that agent)");
        }
        SshCommand open = new SshCommand("ssh", "10.0.0.3", new SshOptions(Optional.empty(), Optional.empty(),
                Optional.of(dir.resolve("open").toString()), Optional.empty(), Optional.empty()));
        assertThat(open.unreachable(255, denied).orElseThrow()).contains("(set ssh.user and ssh.identity_file");
        String gone = dir.resolve("gone").toString();
        SshCommand missing = new SshCommand("ssh", "10.0.0.3", new SshOptions(Optional.empty(), Optional.empty(),
                Optional.of(gone), Optional.empty(), Optional.empty()));
        assertThat(missing.unreachable(255, "Warning: Identity file " + gone + " not accessible: No such file or "
                + "directory.\n" + denied)).contains("ssh: root@10.0.0.3: Permission denied (publickey). (Identity file "
                + gone + " not accessible: No such file or directory: fix ssh.identity_file in the spec)");
    }

    @Test
    void srunsOwnErrorsAreUnreachableButATaskExitingIsNot() {
        SrunStep srun = new SrunStep("12", "n9");
        assertThat(srun.unreachable(1, "srun: error: Unable to create step for job 12: Invalid node name specified\n"))
                .contains("srun: Unable to create step for job 12: Invalid node name specified");
        assertThat(srun.unreachable(1, "railyard: 1 FAIL\nsrun: error: n1: task 0: Exited with exit code 1\n"))
                .isEmpty();
        assertThat(srun.argv(List.of("/opt/ry/bin/railyard", "check"), Duration.ofSeconds(90)))
                .startsWith("srun", "--jobid=12", "--nodes=1", "--ntasks=1", "-w", "n9", "--overlap", "--quiet",
                        "--job-name=railyard", "--time=3", "sh", "-c", ProcessGroupWrapper.SCRIPT, "railyard-step",
                        "/opt/ry/bin/railyard", "check");
    }
}
