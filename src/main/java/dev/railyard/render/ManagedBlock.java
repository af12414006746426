package dev.railyard.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The part of a file that people also edit (/etc/hosts, /etc/nccl.conf) that railyard owns: the lines between a
 * BEGIN and an END marker. Apply replaces only those and keeps every other line where it was, except a line that
 * would contradict the block (the node's own name on 127.0.1.1, a key the block sets): that one is commented out in
 * place, so a reader still sees it, and the diff's notes name it.
 */
public record ManagedBlock(String text, Overrides overrides) {

    public static final String BEGIN = "# BEGIN railyard managed block: apply rewrites the lines up to END; lines outside it are yours and kept";
    public static final String END = "# END railyard managed block";
    static final String RETIRED = "# railyard commented this out (the managed block sets it): ";

    /** Lines outside the block that the block replaces. */
    public sealed interface Overrides {
        /** hosts(5): a line naming any of these hosts. */
        record HostNames(List<String> names) implements Overrides {
            public HostNames {
                names = List.copyOf(names);
            }
        }

        /** KEY=VALUE files: a line setting one of these keys. */
        record Keys(List<String> keys) implements Overrides {
            public Keys {
                keys = List.copyOf(keys);
            }
        }
    }

    /** The merged file and what the merge did with the lines outside the block. */
    public record Merged(String content, List<String> notes) {
        public Merged {
            notes = List.copyOf(notes);
        }
    }

    /** Wraps the rendered lines in the markers. */
    static String wrap(String body) {
        return BEGIN + "\n" + body + (body.endsWith("\n") ? "" : "\n") + END + "\n";
    }

    /** The file as it should be: {@code current} with its block replaced (or the block appended when it has none). */
    public Merged merge(String current) {
        List<String> lines = current.lines().toList();
        int begin = lines.indexOf(BEGIN);
        int end = begin < 0 ? -1 : lines.subList(begin, lines.size()).indexOf(END);
        List<String> before = new ArrayList<>(begin < 0 ? lines : lines.subList(0, begin));
        List<String> after = new ArrayList<>(begin < 0 || end < 0 ? List.of() : lines.subList(begin + end + 1, lines.size()));
        List<String> notes = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        retire(before, notes, kept);
        retire(after, notes, kept);
        if (!kept.isEmpty()) {
            notes.addFirst("kept " + kept.size() + " line(s) outside railyard's managed block: "
                    + String.join("; ", kept.subList(0, Math.min(5, kept.size())).stream().map(l -> "'" + l.strip() + "'").toList())
                    + (kept.size() > 5 ? "; ..." : ""));
        }
        StringBuilder s = new StringBuilder();
        for (String l : before) s.append(l).append('\n');
        if (begin < 0 && !before.isEmpty() && !before.getLast().isBlank()) s.append('\n');
        s.append(text);
        for (String l : after) s.append(l).append('\n');
        return new Merged(s.toString(), notes);
    }

    private void retire(List<String> lines, List<String> notes, List<String> kept) {
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            String t = l.strip();
            if (t.isEmpty() || t.startsWith("#")) continue;
            Optional<String> why = contradiction(t);
            if (why.isPresent()) {
                lines.set(i, RETIRED + l);
                notes.add("commented out '" + t + "': " + why.get());
            } else {
                kept.add(l);
            }
        }
    }

    private Optional<String> contradiction(String line) {
        return switch (overrides) {
            case Overrides.HostNames h -> {
                String[] fields = line.split("#", 2)[0].trim().split("\\s+");
                for (int f = 1; f < fields.length; f++) {
                    if (h.names().contains(fields[f])) {
                        yield Optional.of(fields[f] + " resolves from the managed block (getent returns the first line that names it)");
                    }
                }
                yield Optional.empty();
            }
            case Overrides.Keys k -> {
                int eq = line.indexOf('=');
                String key = eq < 0 ? line : line.substring(0, eq).strip();
                yield k.keys().contains(key) ? Optional.of(key + " is set in the managed block") : Optional.empty();
            }
        };
    }
}
