package dev.railyard.cli;

import dev.railyard.apply.ApplyReport;
import dev.railyard.apply.ApplyReport.FileChange;
import dev.railyard.cluster.ClusterApply;
import dev.railyard.model.NodeStatus;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** apply's text: one node's diff, writes or undo; across nodes, each node under its name and a summary. */
final class ApplyText {

    private ApplyText() {
    }

    /** {@code undoHint} is the command that undoes this apply, where the node's own one is the right one to show. */
    static String node(ApplyReport r, Optional<String> undoHint) {
        return node(r, undoHint, -1);
    }

    /** {@code stoppedOf}: an apply stopped by a signal after {@code r}'s files, out of this many to write (-1: not stopped). */
    static String node(ApplyReport r, Optional<String> undoHint, long stoppedOf) {
        StringBuilder s = new StringBuilder();
        if (r.mode() == ApplyReport.Mode.UNDO) {
            long restored = r.count(FileChange.RESTORED);
            s.append("undid ").append(r.backup().map(b -> Path.of(b).getFileName().toString()).orElse("?"))
                    .append(": restored ").append(restored).append(" file(s), removed ")
                    .append(r.count(FileChange.REMOVED)).append(" created file(s)\n");
            for (ApplyReport.FileEntry f : r.files()) {
                s.append("  ").append(f.change() == FileChange.RESTORED ? "restored " : "removed ").append(f.path()).append('\n');
            }
            followUps(s, r);
            return s.toString();
        }
        for (ApplyReport.FileEntry f : r.files()) {
            if (f.change() == FileChange.UNCHANGED) continue;
            f.diff().forEach(line -> s.append(line).append('\n'));
            f.previousMode().ifPresent(m -> s.append("mode ").append(f.path()).append(": ").append(m).append(" -> ")
                    .append(f.mode()).append('\n'));
            f.notes().forEach(n -> s.append("note ").append(f.path()).append(": ").append(n).append('\n'));
        }
        int total = r.files().size();
        if (r.mode() == ApplyReport.Mode.DRY_RUN) {
            s.append(r.changed()).append(" of ").append(total).append(" file(s) would change under ").append(r.root())
                    .append(r.changed() > 0 ? "; run with --apply to write them" : "").append('\n');
        } else if (r.changed() == 0) {
            s.append("nothing to change: all ").append(total).append(" file(s) under ").append(r.root())
                    .append(" are already as rendered; no backup made, nothing run\n");
        } else if (stoppedOf >= 0) {
            s.append("stopped: ").append(r.changed()).append(" of ").append(stoppedOf).append(" file(s) to change were put in place under ")
                    .append(r.root()).append(" before the stop")
                    .append(r.backup().map(b -> "; backup " + b + undoHint.map(u -> " (undo: " + u + ")").orElse("")).orElse(""))
                    .append('\n');
        } else {
            s.append(r.changed()).append(" of ").append(total).append(" file(s) changed under ").append(r.root())
                    .append(r.backup().map(b -> "; backup " + b + undoHint.map(u -> " (undo: " + u + ")").orElse("")).orElse(""))
                    .append('\n');
        }
        followUps(s, r);
        return s.toString();
    }

    private static void followUps(StringBuilder s, ApplyReport r) {
        for (ApplyReport.FollowUp f : r.followUps()) {
            String cmd = String.join(" ", f.argv());
            s.append(switch (f.outcome()) {
                case NEXT_STEP -> "next on the node (" + f.why() + "): " + cmd;
                case NOT_RESTARTED -> "not restarting networking (" + f.why() + "); to do it now: " + cmd + "  (or add --restart-network)";
                case NOT_STARTED -> "not started (--no-start; " + f.why() + "); to do it: " + cmd;
                case WOULD_RUN -> "--apply then runs (" + f.why() + "): " + cmd;
                case RAN -> "ran: " + cmd;
                case FAILED -> "FAILED (" + f.detail() + "): " + cmd;
            }).append('\n');
        }
    }

    /** Each node under a "== NODE: STATUS" line, then one summary line naming every node that did not complete. */
    static String nodes(String launcher, ApplyReport.Mode mode, List<ClusterApply.NodeResult> results, Optional<String> undoHint) {
        StringBuilder s = new StringBuilder();
        for (ClusterApply.NodeResult n : results) {
            s.append("== ").append(n.node()).append(": ").append(n.status())
                    .append(n.detail().isEmpty() ? "" : ": " + n.detail()).append('\n');
            n.result().ifPresent(r -> s.append(node(r, Optional.empty())));
        }
        s.append('\n');
        long done = results.stream().filter(n -> n.status() == NodeStatus.COMPLETED).count();
        long files = results.stream().flatMap(n -> n.result().stream()).mapToLong(ApplyReport::changed).sum();
        String verb = switch (mode) {
            case DRY_RUN -> "would change";
            case APPLY -> "changed";
            case UNDO -> "restored or removed";
        };
        s.append("apply (").append(mode.name().toLowerCase().replace('_', '-')).append(") through the ").append(launcher)
                .append(" launcher: ").append(done).append(" of ").append(results.size()).append(" node(s) done, ")
                .append(files).append(" file(s) ").append(verb);
        List<String> problems = new ArrayList<>();
        for (NodeStatus status : NodeStatus.values()) {
            if (status == NodeStatus.COMPLETED) continue;
            List<String> names = results.stream().filter(n -> n.status() == status).map(ClusterApply.NodeResult::node).toList();
            if (!names.isEmpty()) problems.add(status.name().toLowerCase().replace('_', ' ') + ": " + String.join(", ", names));
        }
        s.append(problems.isEmpty() ? "" : "; " + String.join("; ", problems)).append('\n');
        if (mode == ApplyReport.Mode.APPLY && files > 0) undoHint.ifPresent(u -> s.append("undo on these nodes: ").append(u).append('\n'));
        if (mode == ApplyReport.Mode.DRY_RUN && files > 0) s.append("run with --apply to write them\n");
        return s.toString();
    }
}
