package dev.railyard.render;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Slurm host list compression: compute01..compute08 -> "compute[01-08]"; names without digits stay as they are. */
final class HostList {

    private static final Pattern NUMBERED = Pattern.compile("(.*?)([0-9]+)");

    private HostList() {
    }

    static String compress(List<String> names) {
        Map<String, List<String>> byPrefix = new LinkedHashMap<>();
        List<String> out = new ArrayList<>();
        for (String n : names) {
            Matcher m = NUMBERED.matcher(n);
            if (m.matches()) byPrefix.computeIfAbsent(m.group(1) + "\u0000" + m.group(2).length(), k -> new ArrayList<>()).add(n);
            else out.add(n);
        }
        for (var e : byPrefix.entrySet()) {
            String prefix = e.getKey().substring(0, e.getKey().indexOf('\u0000'));
            List<String> group = e.getValue();
            if (group.size() == 1) {
                out.add(group.getFirst());
                continue;
            }
            out.add(prefix + "[" + ranges(prefix, group) + "]");
        }
        return String.join(",", out);
    }

    private static String ranges(String prefix, List<String> group) {
        List<String> nums = group.stream().map(g -> g.substring(prefix.length())).sorted().toList();
        List<String> parts = new ArrayList<>();
        int i = 0;
        while (i < nums.size()) {
            int j = i;
            while (j + 1 < nums.size() && Long.parseLong(nums.get(j + 1)) == Long.parseLong(nums.get(j)) + 1) j++;
            parts.add(i == j ? nums.get(i) : nums.get(i) + "-" + nums.get(j));
            i = j + 1;
        }
        return String.join(",", parts);
    }
}
