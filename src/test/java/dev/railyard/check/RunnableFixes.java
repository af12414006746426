package dev.railyard.check;

import dev.railyard.model.Finding;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * What "runnable" means for a finding's fix: every line is a shell comment or a command a Linux admin has (the first
 * word from a known list, so prose like "check the cable" fails), the whole block parses with {@code bash -n}, and
 * nothing is left to fill in ({@code <netdev>}, {@code <version>}).
 */
public final class RunnableFixes {

    static final Set<String> COMMANDS = Set.of("modprobe", "echo", "printf", "ip", "nmcli", "netplan", "systemctl",
            "mkdir", "for", "cat", "ls", "lspci", "dmesg", "nvidia-smi", "dcgmi", "ipmitool", "perfquery", "ibportstate",
            "ibv_devinfo", "rdma", "grep", "ethtool", "railyard", "command", "chmod", "ib_write_bw", "ibv_devices",
            "unset", "export", "printenv", "lsmod", "ldconfig", "nvme", "df", "iblinkinfo", "sminfo", "sysctl", "scontrol",
            "reboot", "ras-mc-ctl", "edac-util", "mcelog", "modinfo", "mlxfwmanager", "ibstat", "iperf3",
            "sockperf", "make", "mpirun", "show_gids", "ucx_info", "smartctl", "update-initramfs", "iperf", "nc",
            "mlxlink", "lsblk");
    /** VAR=value words before a command (NCCL_DEBUG=INFO railyard ...). */
    private static final Pattern ASSIGNMENT = Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*=\\S*\\s+)+");
    private static final Pattern PLACEHOLDER = Pattern.compile("<[A-Za-z][A-Za-z _-]*>");
    private static final Map<String, String> PARSED = new ConcurrentHashMap<>();

    private RunnableFixes() {
    }

    public static void assertRunnable(Finding f) {
        assertRunnable(f.id() + " " + f.subject(), f.remediation());
    }

    /** {@code fix} is empty or runnable; {@code what} names it in a failure. */
    public static void assertRunnable(String what, String fix) {
        problem(what, fix).ifPresent(p -> {
            throw new AssertionError(p);
        });
    }

    /** Why {@code fix} is not runnable, in one message; empty when it is, so a test can list every failure at once. */
    public static Optional<String> problem(String what, String fix) {
        if (fix.isEmpty()) return Optional.empty();
        if (PLACEHOLDER.matcher(fix).find()) return Optional.of(what + ": a placeholder in\n" + fix);
        for (String line : fix.lines().toList()) {
            if (line.startsWith("# ")) continue;
            String first = ASSIGNMENT.matcher(line.replaceFirst("^\\(+", "")).replaceFirst("").split(" ", 2)[0];
            if (!COMMANDS.contains(first)) return Optional.of(what + ": line is not a command: " + line);
        }
        String parsed = PARSED.computeIfAbsent(fix, RunnableFixes::bashSyntax);
        return parsed.isEmpty() ? Optional.empty() : Optional.of(what + ": bash -n says " + parsed + " on\n" + fix);
    }

    /** bash's own parser, so quoting mistakes in a fix are caught; "" when it parses. */
    private static String bashSyntax(String script) {
        try {
            Process p = new ProcessBuilder("bash", "-n").redirectErrorStream(true).start();
            p.getOutputStream().write(script.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly();
            return p.exitValue() == 0 ? "" : out;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
