package dev.railyard.agent;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A node as {@code scontrol show node -o} prints it: its state flags ("IDLE+DRAIN" → IDLE, DRAIN) and the reason
 * an admin or Railyard gave, without the "[user@time]" Slurm appends.
 */
public record SlurmNode(String name, Set<String> stateFlags, Optional<String> reason) {

    /** Reasons Railyard writes start with this, so it never touches an admin's. */
    public static final String REASON_PREFIX = "railyard:";

    public boolean drainedOrDraining() {
        return stateFlags.contains("DRAIN") || stateFlags.contains("DRAINED") || stateFlags.contains("DRAINING");
    }

    public boolean down() {
        return stateFlags.contains("DOWN");
    }

    public boolean drainedByRailyard() {
        return (drainedOrDraining() || down()) && reason.map(r -> r.startsWith(REASON_PREFIX)).orElse(false);
    }

    /** Parses one line of {@code scontrol show node -o NAME}; empty when it names no node. */
    public static Optional<SlurmNode> parse(String line) {
        String name = field(line, "NodeName");
        String state = field(line, "State");
        if (name.isEmpty() || state.isEmpty()) return Optional.empty();
        Set<String> flags = Arrays.stream(state.split("[+*~#!%$@^-]")).filter(s -> !s.isEmpty())
                .map(String::toUpperCase).collect(Collectors.toUnmodifiableSet());
        return Optional.of(new SlurmNode(name, flags, reason(line)));
    }

    private static String field(String line, String key) {
        for (String token : line.split("\\s+")) {
            if (token.startsWith(key + "=")) return token.substring(key.length() + 1);
        }
        return "";
    }

    /** "Reason=railyard: gpu.xid GPU0 [root@2026-11-23T01:02:03]": the reason runs to the bracket or the line end. */
    private static Optional<String> reason(String line) {
        int at = line.indexOf(" Reason=");
        if (at < 0) return Optional.empty();
        String rest = line.substring(at + " Reason=".length()).strip();
        int stamp = rest.lastIndexOf(" [");
        if (stamp >= 0 && rest.endsWith("]")) rest = rest.substring(0, stamp);
        else if (rest.matches(".*\\[[^\\]]*@[^\\]]*\\].*")) rest = rest.substring(0, rest.lastIndexOf('[')).strip();
        return rest.isEmpty() || rest.equals("(null)") ? Optional.empty() : Optional.of(rest);
    }
}
