package dev.railyard.collect;

import dev.railyard.model.Reading;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One element of an nvidia-smi -q -x document with its path ("/nvidia_smi_log/gpu[2]/temperature"), so every
 * reading that fails names the element it came from. Only direct children are looked at: a GPU's mig_devices
 * hold their own fb_memory_usage and ecc_error_count, which must not be taken for the GPU's.
 */
record NvidiaSmiXmlNode(Element element, String path) {

    /** Texts nvidia-smi writes where the GPU or driver has no value; a reading is then absent, not failed. */
    private static final Set<String> NO_VALUE = Set.of("n/a", "[n/a]", "not supported", "[not supported]",
            "not available", "none");

    private static final Pattern NUMBER_WITH_UNIT = Pattern.compile("(-?[0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z/%]*)");

    /** The direct child of that name, if there is one. */
    Optional<NvidiaSmiXmlNode> child(String name) {
        for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return Optional.of(new NvidiaSmiXmlNode(e, path + "/" + name));
            }
        }
        return Optional.empty();
    }

    /** The first of several names that exists: element names changed between DTD versions. */
    Optional<NvidiaSmiXmlNode> firstChild(String... names) {
        for (String name : names) {
            Optional<NvidiaSmiXmlNode> c = child(name);
            if (c.isPresent()) return c;
        }
        return Optional.empty();
    }

    /** Every direct child element, in document order, each with an indexed path when names repeat. */
    List<NvidiaSmiXmlNode> children(String name) {
        List<NvidiaSmiXmlNode> out = new ArrayList<>();
        for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                out.add(new NvidiaSmiXmlNode(e, path + "/" + name + "[" + (out.size() + 1) + "]"));
            }
        }
        return out;
    }

    /** Every direct child element whatever its name. */
    List<NvidiaSmiXmlNode> elements() {
        List<NvidiaSmiXmlNode> out = new ArrayList<>();
        for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) out.add(new NvidiaSmiXmlNode(e, path + "/" + e.getTagName()));
        }
        return out;
    }

    String text() {
        return element.getTextContent().strip();
    }

    /** True when the element holds sub-elements rather than a text such as "N/A". */
    boolean hasElements() {
        return !elements().isEmpty();
    }

    /** The element's text; absent when it is missing or says N/A / Not Supported (the text is kept as the reason). */
    Reading<String> text(String... names) {
        Optional<NvidiaSmiXmlNode> c = firstChild(names);
        if (c.isEmpty()) return Reading.absent("no " + String.join(" or ", names) + " under " + path);
        return c.get().value();
    }

    /** This element's own text, absent when nvidia-smi wrote a no-value text. */
    Reading<String> value() {
        String t = text();
        if (t.isEmpty() || NO_VALUE.contains(t.toLowerCase(Locale.ROOT))) return Reading.absent(path + ": " + t);
        return Reading.of(t);
    }

    /** For a section written as a bare text ("N/A" where row remapping is unsupported): absent, or failed on other text. */
    <T> Reading<T> withoutSections() {
        Reading<String> v = value();
        if (v instanceof Reading.Present<String>(String s)) return Reading.failed(path, "expected sub-elements, found \"" + s + "\"");
        return v.map(x -> null);
    }

    /** A number followed by the unit nvidia-smi prints ("27 C", "67.03 W", "16x", "0"); failed when it is not one. */
    Reading<Double> number(String unit, String... names) {
        Optional<NvidiaSmiXmlNode> c = firstChild(names);
        if (c.isEmpty()) return Reading.absent("no " + String.join(" or ", names) + " under " + path);
        return c.get().numberValue(unit);
    }

    Reading<Double> numberValue(String unit) {
        Reading<String> v = value();
        if (!(v instanceof Reading.Present<String>(String s))) return v.map(x -> 0.0);
        Matcher m = NUMBER_WITH_UNIT.matcher(s);
        if (!m.matches() || !m.group(2).equalsIgnoreCase(unit)) {
            return Reading.failed(path, "not a number" + (unit.isEmpty() ? "" : " in " + unit) + ": \"" + s + "\"");
        }
        // every value read here (temperatures, counts, link gen/width, clocks, power, memory) is unsigned in NVML;
        // only the T.Limit offsets are signed, and they are not read
        if (m.group(1).startsWith("-")) return Reading.failed(path, "negative: \"" + s + "\"");
        return Reading.of(Double.parseDouble(m.group(1)));
    }

    /** A whole number with a unit; failed when the value has a fraction or does not fit. */
    Reading<Long> whole(String unit, String... names) {
        Optional<NvidiaSmiXmlNode> c = firstChild(names);
        if (c.isEmpty()) return Reading.absent("no " + String.join(" or ", names) + " under " + path);
        NvidiaSmiXmlNode n = c.get();
        Reading<Double> d = n.numberValue(unit);
        if (d instanceof Reading.Present<Double>(Double v) && (v != Math.rint(v) || Math.abs(v) > Long.MAX_VALUE / 2)) {
            return Reading.failed(n.path(), "not a whole number: \"" + n.text() + "\"");
        }
        return d.map(Double::longValue);
    }

    Reading<Integer> integer(String unit, String... names) {
        return whole(unit, names).map(Long::intValue);
    }

    /** "Enabled"/"Disabled", "Yes"/"No", "Active"/"Not Active"; anything else is failed. */
    Reading<Boolean> flag(String yes, String no, String... names) {
        Optional<NvidiaSmiXmlNode> c = firstChild(names);
        if (c.isEmpty()) return Reading.absent("no " + String.join(" or ", names) + " under " + path);
        return c.get().flagValue(yes, no);
    }

    Reading<Boolean> flagValue(String yes, String no) {
        Reading<String> v = value();
        if (!(v instanceof Reading.Present<String>(String s))) return v.map(x -> false);
        if (s.equalsIgnoreCase(yes)) return Reading.of(true);
        if (s.equalsIgnoreCase(no)) return Reading.of(false);
        return Reading.failed(path, "neither \"" + yes + "\" nor \"" + no + "\": \"" + s + "\"");
    }
}
