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

    public ClusterSpec read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new RailyardException.Usage("no spec file at " + file,
                    "write a starter with: railyard init --out " + file);
        } catch (IOException e) {
            throw new RailyardException.Usage("cannot read spec " + file + ": " + IoErrors.describe(e), SpecNode.HINT, e);
        }
        return read(file.toString(), text);
    }

    /** Reads spec text; {@code source} names it in messages (the file name as the user gave it). */
    public ClusterSpec read(String source, String text) {
        Node root;
        try {
            LoaderOptions options = new LoaderOptions();
            // Duplicates are reported with both lines by SpecNode; aliases are few in a spec, bombs are refused.
            options.setAllowDuplicateKeys(true);
            options.setMaxAliasesForCollections(20);
            options.setCodePointLimit(4 * 1024 * 1024);
            root = new Yaml(options).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String where = mark != null ? ":" + (mark.getLine() + 1) : "";
            String problem = e.getProblem() != null ? e.getProblem() : e.getContext();
            throw new RailyardException.Usage(source + where + ": YAML syntax error: " + problem, SpecNode.HINT, e);
        } catch (YAMLException e) {
            throw new RailyardException.Usage(source + ": YAML error: " + e.getMessage(), SpecNode.HINT, e);
        }
        if (root == null) {
            throw new RailyardException.Usage(source + ": the spec is empty; it needs at least cluster and nodes",
                    SpecNode.HINT);
        }
        return new SpecMapper(source).map(new SpecNode(source, "", root));
    }
}
