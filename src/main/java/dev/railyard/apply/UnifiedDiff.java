package dev.railyard.apply;

import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff (diff -u) of two texts, from a longest-common-subsequence table: configuration files are a few
 * hundred lines at most, so the quadratic table is small and the output matches what people know from diff.
 */
public final class UnifiedDiff {

    static final int CONTEXT = 3;

    private UnifiedDiff() {
    }

    private record Edit(char op, String line, int aLine, int bLine) {}

    public static String diff(String aName, String bName, String a, String b) {
        List<String> x = a.isEmpty() ? List.of() : List.of(a.split("\n", -1));
        List<String> y = b.isEmpty() ? List.of() : List.of(b.split("\n", -1));
        x = dropFinalEmpty(x);
        y = dropFinalEmpty(y);
        List<Edit> edits = edits(x, y);
        if (edits.stream().allMatch(e -> e.op() == ' ')) return "";
        StringBuilder out = new StringBuilder("--- " + aName + "\n+++ " + bName + "\n");
        int i = 0;
        while (i < edits.size()) {
            if (edits.get(i).op() == ' ') {
                i++;
                continue;
            }
            int start = Math.max(0, i - CONTEXT);
            // one hunk while the unchanged lines between two changes are at most two contexts, as diff -u does
            int lastChange = i;
            for (int j = i; j < edits.size() && j - lastChange <= 2 * CONTEXT + 1; j++) {
                if (edits.get(j).op() != ' ') lastChange = j;
            }
            int end = Math.min(edits.size() - 1, lastChange + CONTEXT);
            hunk(out, edits.subList(start, end + 1));
            i = end + 1;
        }
        return out.toString();
    }

    private static List<String> dropFinalEmpty(List<String> lines) {
        if (!lines.isEmpty() && lines.getLast().isEmpty()) return lines.subList(0, lines.size() - 1);
        return lines;
    }

    private static void hunk(StringBuilder out, List<Edit> h) {
        int aStart = h.getFirst().aLine();
        int bStart = h.getFirst().bLine();
        long aCount = h.stream().filter(e -> e.op() != '+').count();
        long bCount = h.stream().filter(e -> e.op() != '-').count();
        out.append("@@ -").append(range(aStart, aCount)).append(" +").append(range(bStart, bCount)).append(" @@\n");
        for (Edit e : h) out.append(e.op()).append(e.line()).append('\n');
    }

    /** diff -u's "start,count", where an empty side starts at the line before it. */
    private static String range(int start, long count) {
        if (count == 0) return (start - 1) + ",0";
        return count == 1 ? Integer.toString(start) : start + "," + count;
    }

    private static List<Edit> edits(List<String> x, List<String> y) {
        int n = x.size();
        int m = y.size();
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = x.get(i).equals(y.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        List<Edit> edits = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && x.get(i).equals(y.get(j))) {
                edits.add(new Edit(' ', x.get(i), i + 1, j + 1));
                i++;
                j++;
            } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
                edits.add(new Edit('-', x.get(i), i + 1, j + 1));
                i++;
            } else {
                edits.add(new Edit('+', y.get(j), i + 1, j + 1));
                j++;
            }
        }
        return edits;
    }
}
