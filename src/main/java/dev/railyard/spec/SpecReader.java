package dev.railyard.spec;

import dev.railyard.platform.IoErrors;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads a cluster spec. YAML is composed (not constructed) so every node keeps its line, and mapped by hand so
 * each mistake is reported as {@code file:line: key.path: problem}, as a {@link RailyardException.Usage}.
 */
public final class SpecReader {

    /** Far more than any cluster needs (a 512-node spec is about 60 KB), and refused before it is read. */
    static final int MAX_BYTES = 1 << 20;

    public ClusterSpec read(Path file) {
        return read(file.toString(), text(file));
    }

    /**
     * A spec file's text, which must be UTF-8 (a byte order mark is fine): a file saved as Latin-1, Windows-1252 or
     * UTF-16 is named with the line of its first byte that is not UTF-8, instead of a decoder's "Input length = 1".
     */
    public static String text(Path file) {
        byte[] bytes;
        try {
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw new RailyardException.Usage(file + " is " + String.format(java.util.Locale.ROOT, "%.1f MB", size / 1e6)
                        + "; a spec is a few KB of YAML (at most 1 MiB): is it the right file?", SpecNode.HINT);
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new RailyardException.Usage("no spec file at " + file,
                    "write a starter with: railyard init --out " + file);
        } catch (IOException e) {
            throw new RailyardException.Usage("cannot read spec " + file + ": " + IoErrors.describe(e), SpecNode.HINT, e);
        }
        if (bytes.length >= 2 && ((bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE)
                || (bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF))) {
            throw new RailyardException.Usage(file + ": the file is UTF-16 (its byte order mark says so); a spec is UTF-8",
                    "save it as UTF-8 in your editor, or: iconv -f UTF-16 -t UTF-8 " + file + " > cluster-utf8.yaml");
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            return decoder.decode(in).toString();
        } catch (CharacterCodingException e) {
            for (byte x : bytes) {
                if (x == 0) throw new RailyardException.Usage(file + ": not text (not UTF-8): is it the right file?", SpecNode.HINT);
            }
            int at = in.position();
            int line = 1;
            for (int i = 0; i < at && i < bytes.length; i++) if (bytes[i] == '\n') line++;
            String b = at < bytes.length ? String.format("0x%02X", bytes[at] & 0xff) : "at the end";
            throw new RailyardException.Usage(file + ":" + line + ": not UTF-8 (byte " + b + "); a spec is UTF-8, "
                    + "and this looks like Latin-1 or Windows-1252 text",
                    "save it as UTF-8 in your editor, or: iconv -f WINDOWS-1252 -t UTF-8 " + file + " > cluster-utf8.yaml");
        }
    }

    /** Reads spec text; {@code source} names it in messages (the file name as the user gave it). */
    public ClusterSpec read(String source, String text) {
        Node root;
        try {
            LoaderOptions options = new LoaderOptions();
            // Duplicates are reported with both lines by SpecNode; aliases are few in a spec, bombs are refused.
            options.setAllowDuplicateKeys(true);
            options.setMaxAliasesForCollections(20);
            options.setCodePointLimit(MAX_BYTES);
            root = new Yaml(options).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String where = mark != null ? ":" + (mark.getLine() + 1) : "";
            String problem = e.getProblem() != null ? e.getProblem() : e.getContext();
            throw new RailyardException.Usage(source + where + ": YAML syntax error: " + problem + plainWords(problem),
                    SpecNode.HINT, e);
        } catch (YAMLException e) {
            throw new RailyardException.Usage(source + ": YAML error: " + e.getMessage(), SpecNode.HINT, e);
        }
        if (root == null) {
            throw new RailyardException.Usage(source + ": the spec is empty; it needs at least cluster and nodes",
                    SpecNode.HINT);
        }
        return new SpecMapper(source).map(new SpecNode(new SpecProblems(source), source, "", root));
    }

    /** What SnakeYAML's terse problems usually mean in a hand-written spec. */
    private static String plainWords(String problem) {
        if (problem == null) return "";
        if (problem.contains("mapping values are not allowed here")) {
            return " (a key indented differently from the lines around it, or an unquoted value with \": \" in it)";
        }
        if (problem.contains("could not find expected ':'")) {
            return " (a line without \"key: value\", or a missing space after ':')";
        }
        return "";
    }
}
