package dev.railyard.apply;

import java.util.List;
import java.util.Optional;

/**
 * What one apply did on one node, for the text and the JSON (docs/json.md): each file with its change and diff
 * lines, the backup made (or undone), and each follow-up command with what became of it. A cluster-wide apply reads
 * these back from each node's {@code apply --format json}.
 */
public record ApplyReport(Optional<String> node, String root, Mode mode, List<FileEntry> files, int changed,
                          Optional<String> backup, List<FollowUp> followUps) {

    public ApplyReport {
        files = List.copyOf(files);
        followUps = List.copyOf(followUps);
    }

    public enum Mode { DRY_RUN, APPLY, UNDO }

    /** CREATE/UPDATE/UNCHANGED from a diff or an apply; RESTORED/REMOVED from an undo. */
    public enum FileChange { CREATE, UPDATE, UNCHANGED, RESTORED, REMOVED }

    /**
     * One file, named as on the node ("/etc/hosts"). {@code diff} is the unified diff as lines (a list, so no JSON
     * string is cut however long the file); {@code previousMode} is the mode on disk when it differs; {@code notes}
     * say what the diff alone does not (lines kept outside a managed block, a mode chosen for the driver, another
     * file that defines the same interface).
     */
    public record FileEntry(String path, FileChange change, String mode, Optional<String> previousMode, List<String> diff,
                            List<String> notes) {
        public FileEntry {
            diff = List.copyOf(diff);
            notes = notes == null ? List.of() : List.copyOf(notes);
        }
    }

    /**
     * NEXT_STEP: printed, not run (a root other than /); NOT_RESTARTED: a network command left for --restart-network;
     * NOT_STARTED: enabling, starting or loading left to the admin (--no-start); WOULD_RUN: a dry run's plan.
     */
    public enum Outcome { RAN, FAILED, NOT_RESTARTED, NOT_STARTED, NEXT_STEP, WOULD_RUN }

    public record FollowUp(List<String> argv, String why, boolean network, Outcome outcome, String detail) {
        public FollowUp {
            argv = List.copyOf(argv);
        }
    }

    /** The diff or apply of rendered files against the root, before any follow-up ran. */
    public static ApplyReport of(Optional<String> node, String root, Mode mode, List<Change> changes,
                                 Optional<Backups.Backup> backup, List<FollowUp> followUps) {
        List<FileEntry> files = changes.stream().map(ApplyReport::entry).toList();
        int changed = (int) changes.stream().filter(c -> c.kind() != Change.Kind.UNCHANGED).count();
        return new ApplyReport(node, root, mode, files, changed, backup.map(b -> b.dir().toString()), followUps);
    }

    /** An undo: every file of the backup, restored or removed. */
    public static ApplyReport undone(Optional<String> node, String root, Backups.Backup b) {
        return undone(node, root, b, List.of());
    }

    /** An undo and the commands it ran (or printed) to disable what the apply enabled. */
    public static ApplyReport undone(Optional<String> node, String root, Backups.Backup b, List<FollowUp> followUps) {
        List<FileEntry> files = b.entries().stream().map(e -> new FileEntry("/" + e.path(),
                e.replaced() ? FileChange.RESTORED : FileChange.REMOVED,
                e.replaced() ? String.format("%04o", e.mode()) : "", Optional.empty(), List.of(), List.of())).toList();
        return new ApplyReport(node, root, Mode.UNDO, files, files.size(), Optional.of(b.dir().toString()), followUps);
    }

    private static FileEntry entry(Change c) {
        FileChange kind = switch (c.kind()) {
            case CREATE -> FileChange.CREATE;
            case UPDATE -> FileChange.UPDATE;
            case UNCHANGED -> FileChange.UNCHANGED;
        };
        Optional<String> previous = c.currentMode().filter(m -> m != c.file().mode()).map(m -> String.format("%04o", m));
        String diff = kind == FileChange.UNCHANGED ? "" : c.diff();
        return new FileEntry("/" + c.file().path(), kind, c.file().modeOctal(), previous, diff.lines().toList(), c.file().notes());
    }

    public long count(FileChange change) {
        return files.stream().filter(f -> f.change() == change).count();
    }
}
