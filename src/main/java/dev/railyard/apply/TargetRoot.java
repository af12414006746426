package dev.railyard.apply;

import dev.railyard.model.RailyardException;
import dev.railyard.render.RenderedFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The directory files are applied under: "/" on a node, a scratch directory in tests. Reads what is there now. */
public record TargetRoot(Path dir) {

    public Path resolve(String relative) {
        return dir.resolve(relative);
    }

    public List<Change> changes(List<RenderedFile> files) {
        List<Change> out = new ArrayList<>();
        for (RenderedFile f : files) {
            Path p = resolve(f.path());
            if (Files.isSymbolicLink(p) || (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))) {
                throw new RailyardException.Usage(p + " is not a plain file (a link or a directory): railyard does not replace it",
                        "move it away if the rendered file should take its place");
            }
            if (!Files.exists(p)) {
                out.add(new Change(f, Optional.empty(), Optional.empty()));
                continue;
            }
            try {
                String current = Files.readString(p, StandardCharsets.UTF_8);
                // a file people also edit: the rendered block goes into what is there, every other line stays
                out.add(new Change(f.mergedInto(current), Optional.of(current), Optional.of(mode(p))));
            } catch (MalformedInputException e) {
                throw new RailyardException.Usage(p + " is not UTF-8 text: railyard does not replace it", "inspect it first");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    static int mode(Path p) throws IOException {
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
        int mode = 0;
        for (PosixFilePermission perm : perms) mode |= 1 << (8 - perm.ordinal());
        return mode;
    }
}
