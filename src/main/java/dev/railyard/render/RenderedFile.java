package dev.railyard.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One rendered file: its path relative to the root it belongs under ("etc/nccl.conf"), its text, and its mode.
 * NetworkManager and netplan ignore or warn about files others can read, hence the mode travels with the text.
 * {@code block} is present for a file people also edit: apply merges that block into the file on the node, and
 * {@code content} is the file as it is when there is none yet. {@code notes} are what apply's diff says beside the
 * file (a choice the file made that the reader should know of).
 */
public record RenderedFile(String path, String content, int mode, Optional<ManagedBlock> block, List<String> notes) {

    public static final int PUBLIC = 0644;
    public static final int PRIVATE = 0600;

    public RenderedFile {
        if (path.startsWith("/") || path.contains("..")) throw new IllegalArgumentException("not a relative path: " + path);
        notes = List.copyOf(notes);
    }

    public RenderedFile(String path, String content, int mode) {
        this(path, content, mode, Optional.empty(), List.of());
    }

    public static RenderedFile of(String path, String content) {
        return new RenderedFile(path, content, PUBLIC);
    }

    /** A file people also edit: {@code head} (the file's start when there is none yet) and railyard's block. */
    public static RenderedFile block(String path, String head, String body, ManagedBlock.Overrides overrides) {
        ManagedBlock b = new ManagedBlock(ManagedBlock.wrap(body), overrides);
        return new RenderedFile(path, head + b.text(), PUBLIC, Optional.of(b), List.of());
    }

    public RenderedFile withNotes(List<String> more) {
        List<String> all = new ArrayList<>(notes);
        all.addAll(more);
        return new RenderedFile(path, content, mode, block, all);
    }

    /** This file as it should be on a node whose current text is {@code current}. */
    public RenderedFile mergedInto(String current) {
        if (block.isEmpty()) return this;
        ManagedBlock.Merged m = block.get().merge(current);
        return new RenderedFile(path, m.content(), mode, block, notes).withNotes(m.notes());
    }

    public String modeOctal() {
        return String.format("%04o", mode);
    }
}
