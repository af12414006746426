package dev.railyard.platform;

import java.util.Comparator;

/** Orders "cpu2" before "cpu10" and "mlx5_2" before "mlx5_10", as people expect in listings. */
public enum NaturalOrder implements Comparator<String> {
    INSTANCE;

    @Override
    public int compare(String a, String b) {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            char ca = a.charAt(i), cb = b.charAt(j);
            if (Character.isDigit(ca) && Character.isDigit(cb)) {
                int si = i, sj = j;
                while (i < a.length() && Character.isDigit(a.charAt(i))) i++;
                while (j < b.length() && Character.isDigit(b.charAt(j))) j++;
                // leading zeros do not count ("007" is 7), but one digit always stays; no regex: the agent sorts
                // every listing it reads each second
                while (si < i - 1 && a.charAt(si) == '0') si++;
                while (sj < j - 1 && b.charAt(sj) == '0') sj++;
                int la = i - si, lb = j - sj;
                if (la != lb) return Integer.compare(la, lb);
                for (int k = 0; k < la; k++) {
                    int c = Character.compare(a.charAt(si + k), b.charAt(sj + k));
                    if (c != 0) return c;
                }
            } else {
                if (ca != cb) return Character.compare(ca, cb);
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
