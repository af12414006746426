package dev.railyard.apply;

import dev.railyard.render.RenderedFile;

import java.util.Optional;

/** One rendered file against what is on disk under the root: its current text and mode, when it exists. */
public record Change(RenderedFile file, Optional<String> current, Optional<Integer> currentMode) {

    public enum Kind { CREATE, UPDATE, UNCHANGED }

    public Kind kind() {
        if (current.isEmpty()) return Kind.CREATE;
        boolean sameMode = currentMode.map(m -> m == file.mode()).orElse(true);
        return current.get().equals(file.content()) && sameMode ? Kind.UNCHANGED : Kind.UPDATE;
    }

    /** The unified diff (empty for a file whose text is unchanged), named as the file is named on the node. */
    public String diff() {
        String name = "/" + file.path();
        return UnifiedDiff.diff(current.isPresent() ? name : "/dev/null", name, current.orElse(""), file.content());
    }
}
