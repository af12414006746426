package dev.railyard.spec;

import dev.railyard.model.RailyardException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One composed YAML node with the file it came from and its key path ("networks[1].mtu"), so that every
 * conversion failure becomes "file:line: path: what is wrong".
 */
final class SpecNode {

    static final String HINT = "the spec format is described in docs/spec.md; 'railyard init' writes a starter";

    /** A problem's text is cut here: a whole file read as one value must not be echoed back. */
    static final int MAX_PROBLEM = 300;
    /** A value quoted in a problem is cut here. */
    static final int MAX_QUOTED = 60;

    private final SpecProblems problems;
    private final String source;
    private final String path;
    private final Node node;

    /** A node whose unknown and duplicate keys are noted in {@code problems} and skipped, so reading goes on. */
    SpecNode(SpecProblems problems, String source, String path, Node node) {
        this.problems = problems;
        this.source = source;
        this.path = path;
        this.node = node;
    }

    SpecProblems problems() {
        return problems;
    }

    String path() {
        return path;
    }

    int line() {
        return node.getStartMark().getLine() + 1;
    }

    RailyardException.Usage error(String problem) {
        return errorAt(line(), problem);
    }

    RailyardException.Usage errorAt(int line, String problem) {
        String where = path.isEmpty() ? "" : path + ": ";
        String text = where + problem;
        if (text.length() > MAX_PROBLEM) text = text.substring(0, MAX_PROBLEM) + "...";
        return new RailyardException.Usage(source + ":" + line + ": " + text, HINT);
    }

    boolean isNull() {
        return node instanceof ScalarNode s && s.getTag().equals(Tag.NULL);
    }

    /** A mapping whose keys must all be in {@code allowed}; duplicate keys are refused (YAML keeps the last). */
    SpecMap asMap(List<String> allowed) {
        SpecMap map = asOpenMap();
        for (Map.Entry<String, SpecMap.Entry> e : map.entries().entrySet()) {
            if (allowed.contains(e.getKey())) continue;
            map.droppedKeys()[0] = true;
            SpecNode key = e.getValue().key();
            String suggestion = KeySuggestion.closest(e.getKey(), allowed)
                    .map(s -> "did you mean \"" + s + "\"?")
                    .orElse("allowed: " + String.join(", ", allowed));
            problems.addOnce(key.node, key.error("unknown key; " + suggestion));
        }
        map.entries().keySet().retainAll(allowed);
        return map;
    }

    /**
     * A mapping with any scalar keys (node names under bind). YAML merge keys ({@code <<: *defaults}, or a list of
     * aliases) add the keys of the mappings they name that this mapping does not set itself, the first listed
     * winning, as YAML 1.1 defines them.
     */
    SpecMap asOpenMap() {
        if (!(node instanceof MappingNode m)) throw error("expected a mapping, got " + describe());
        Map<String, SpecMap.Entry> entries = new LinkedHashMap<>();
        List<SpecNode> merged = new ArrayList<>();
        for (NodeTuple t : m.getValue()) {
            Node k = t.getKeyNode();
            if (k instanceof ScalarNode ks && ks.getTag().equals(Tag.MERGE)) {
                SpecNode value = new SpecNode(problems, source, path, t.getValueNode());
                if (t.getValueNode() instanceof SequenceNode) merged.addAll(value.asList());
                else merged.add(value);
                continue;
            }
            if (!(k instanceof ScalarNode ks) || ks.getTag().equals(Tag.NULL)) {
                throw new SpecNode(problems, source, path, k).error("keys must be plain names");
            }
            String name = ks.getValue();
            String childPath = path.isEmpty() ? name : path + "." + name;
            SpecNode keyNode = new SpecNode(problems, source, childPath, k);
            SpecMap.Entry earlier = entries.get(name);
            if (earlier != null) {
                problems.addOnce(k, keyNode.error("duplicate key (first at line " + earlier.key().line() + ")"));
                continue;
            }
            entries.put(name, new SpecMap.Entry(keyNode, new SpecNode(problems, source, childPath, t.getValueNode())));
        }
        for (SpecNode from : merged) {
            if (!(from.node instanceof MappingNode)) {
                throw from.error("<< (a YAML merge key) takes a mapping or a list of mappings, such as *defaults; got "
                        + from.describe());
            }
            SpecNode samePath = new SpecNode(problems, source, path, from.node);
            samePath.asOpenMap().entries().forEach(entries::putIfAbsent);
        }
        return new SpecMap(this, entries, new boolean[1]);
    }

    List<SpecNode> asList() {
        if (!(node instanceof SequenceNode s)) throw error("expected a list, got " + describe());
        return items(s);
    }

    /**
     * A list of named items (nodes, networks), which people also write as a mapping keyed by the name
     * ("gpu1: {address: ...}"): that mistake gets the way to write it.
     */
    List<SpecNode> asNamedList(String example) {
        if (node instanceof MappingNode m && !m.getValue().isEmpty()
                && m.getValue().getFirst().getKeyNode() instanceof ScalarNode first) {
            if (first.getValue().equals("name")) {
                throw error("expected a list, got a mapping; put a dash before each entry: \"- name: ...\"");
            }
            throw error("expected a list, got a mapping; write each entry as a list item with its name inside: "
                    + example.replace("NAME", first.getValue()));
        }
        return asList();
    }

    private List<SpecNode> items(SequenceNode s) {
        List<SpecNode> items = new ArrayList<>();
        for (int i = 0; i < s.getValue().size(); i++) {
            items.add(new SpecNode(problems, source, path + "[" + i + "]", s.getValue().get(i)));
        }
        return items;
    }

    /** Any scalar as written: "13.0" stays "13.0" although YAML would resolve it to a float. */
    String asString() {
        if (!(node instanceof ScalarNode s) || isNull()) throw error("expected a text value, got " + describe());
        if (s.getValue().isBlank()) throw error("is empty");
        return s.getValue().trim();
    }

    long asLong() {
        String text = scalarText("an integer");
        try {
            return Long.parseLong(text.replace("_", ""));
        } catch (NumberFormatException e) {
            throw error("expected an integer, got \"" + text + "\"");
        }
    }

    int asInt() {
        long v = asLong();
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) throw error(v + " is too large");
        return (int) v;
    }

    double asDouble() {
        String text = scalarText("a number");
        try {
            double v = Double.parseDouble(text.replace("_", ""));
            if (Double.isFinite(v) && !text.matches(".*[a-zA-Z].*")) return v;
        } catch (NumberFormatException e) {
            // fall through to the message below
        }
        throw error("expected a number, got \"" + text + "\"");
    }

    /** An enum written in lower case ("infiniband"); matching ignores case. */
    <E extends Enum<E>> E asEnum(Class<E> type) {
        String text = scalarText("one of " + allowed(type));
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(text)) return e;
        }
        throw error("\"" + text + "\" is not one of " + allowed(type));
    }

    static <E extends Enum<E>> String allowed(Class<E> type) {
        return java.util.Arrays.stream(type.getEnumConstants())
                .map(e -> e.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(", "));
    }

    private String scalarText(String expected) {
        if (!(node instanceof ScalarNode s) || isNull()) throw error("expected " + expected + ", got " + describe());
        return s.getValue().trim();
    }

    private String describe() {
        return switch (node) {
            case MappingNode m -> "a mapping";
            case SequenceNode s -> "a list";
            case ScalarNode s when isNull() -> "nothing";
            case ScalarNode s -> quoted(s.getValue());
            default -> "an anchor";
        };
    }

    /** A problem that follows from one already noted in the file's {@link SpecProblems}: not said twice. */
    static final class AlreadyReported extends RuntimeException {
        AlreadyReported() {
            super(null, null, false, false);
        }
    }

    /** A value as a problem shows it: quoted, and cut with its length when it is long. */
    static String quoted(String value) {
        if (value.length() <= MAX_QUOTED) return "\"" + value + "\"";
        return "\"" + value.substring(0, MAX_QUOTED) + "...\" (" + value.length() + " characters)";
    }

    /** The entries of one mapping, in file order. */
    record SpecMap(SpecNode self, Map<String, Entry> entries, boolean[] droppedKeys) {

        record Entry(SpecNode key, SpecNode value) {}

        /** The value, or empty when the key is missing or has no value ("bmc:"). */
        Optional<SpecNode> get(String key) {
            Entry e = entries.get(key);
            return e == null || e.value().isNull() ? Optional.empty() : Optional.of(e.value());
        }

        SpecNode require(String key) {
            Entry e = entries.get(key);
            // a misspelt key was reported and dropped: that it is missing now is the same mistake
            if (e == null && droppedKeys[0]) throw new AlreadyReported();
            if (e == null) throw self.error("missing required key \"" + key + "\"");
            if (e.value().isNull()) throw e.value().errorAt(e.key().line(), "needs a value");
            return e.value();
        }
    }
}
