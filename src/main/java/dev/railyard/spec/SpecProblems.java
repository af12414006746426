package dev.railyard.spec;

import dev.railyard.model.RailyardException;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The mistakes found in one spec file, so that a file with three wrong values is refused once, with all three and
 * their lines, instead of one per run. The mapper reads each section, list item and field through {@link #attempt};
 * one that fails is noted and the reading goes on with the next, and the spec is refused at the end.
 */
final class SpecProblems {

    /** More than this many is a file that is not a spec at all: the first ones say so well enough. */
    static final int MAX_SHOWN = 20;
    private static final Pattern LINE = Pattern.compile("^[^\\n]*?:(\\d+): ");

    private final String source;
    private final List<RailyardException.Usage> found = new ArrayList<>();
    /** YAML nodes already reported: a key in a mapping merged into several (<<: *defaults) is one mistake. */
    private final Set<Object> reported = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    SpecProblems(String source) {
        this.source = source;
    }

    /** The value {@code work} reads, or empty when it found a mistake (noted here). */
    <T> Optional<T> attempt(Supplier<T> work) {
        try {
            return Optional.ofNullable(work.get());
        } catch (RailyardException.Usage e) {
            add(e);
            return Optional.empty();
        } catch (SpecNode.AlreadyReported e) {
            return Optional.empty();
        }
    }

    void add(RailyardException.Usage e) {
        found.add(e);
    }

    /** Notes {@code e} about {@code yamlNode} unless that node was reported before. */
    void addOnce(Object yamlNode, RailyardException.Usage e) {
        if (reported.add(yamlNode)) add(e);
    }

    int count() {
        return found.size();
    }

    boolean any() {
        return !found.isEmpty();
    }

    /** Refuses the spec when anything was found: the one mistake as it is, or all of them in file order. */
    void throwIfAny() {
        if (found.isEmpty()) return;
        if (found.size() == 1) throw found.getFirst();
        List<RailyardException.Usage> sorted = found.stream().sorted(Comparator.comparingInt(SpecProblems::line)).toList();
        StringBuilder message = new StringBuilder(source + " has " + found.size() + " problems:");
        for (RailyardException.Usage e : sorted.subList(0, Math.min(MAX_SHOWN, sorted.size()))) {
            message.append("\n  ").append(e.getMessage());
        }
        if (sorted.size() > MAX_SHOWN) message.append("\n  ... and ").append(sorted.size() - MAX_SHOWN).append(" more");
        throw new RailyardException.Usage(message.toString(), SpecNode.HINT);
    }

    private static int line(RailyardException.Usage e) {
        Matcher m = LINE.matcher(e.getMessage());
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }
}
