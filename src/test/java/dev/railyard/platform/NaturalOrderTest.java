package dev.railyard.platform;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class NaturalOrderTest {

    @Test
    void numbersInNamesSortByValue() {
        List<String> names = new ArrayList<>(List.of("mlx5_10", "cpu10", "mlx5_2", "cpu2", "cpu007", "cpu0", "mlx5_1"));
        names.sort(NaturalOrder.INSTANCE);
        assertThat(names).containsExactly("cpu0", "cpu2", "cpu007", "cpu10", "mlx5_1", "mlx5_2", "mlx5_10");
        assertThat(NaturalOrder.INSTANCE.compare("a007", "a7")).isZero();
        assertThat(NaturalOrder.INSTANCE.compare("0", "00")).isZero();
        assertThat(NaturalOrder.INSTANCE.compare("a10b", "a10c")).isNegative();
    }

    /** The order it had when leading zeros were stripped with a regex (too slow for the agent's every-second listings). */
    @Test
    void sameOrderAsTheRegexVersion() {
        Random r = new Random(17);
        for (int n = 0; n < 200_000; n++) {
            String a = random(r), b = random(r);
            assertThat(Integer.signum(NaturalOrder.INSTANCE.compare(a, b))).as("%s vs %s", a, b)
                    .isEqualTo(Integer.signum(regexVersion(a, b)));
        }
    }

    private static String random(Random r) {
        String alphabet = "0012ab_";
        StringBuilder s = new StringBuilder();
        for (int i = r.nextInt(9); i > 0; i--) s.append(alphabet.charAt(r.nextInt(alphabet.length())));
        return s.toString();
    }

    private static int regexVersion(String a, String b) {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            char ca = a.charAt(i), cb = b.charAt(j);
            if (Character.isDigit(ca) && Character.isDigit(cb)) {
                int si = i, sj = j;
                while (i < a.length() && Character.isDigit(a.charAt(i))) i++;
                while (j < b.length() && Character.isDigit(b.charAt(j))) j++;
                String na = a.substring(si, i).replaceFirst("^0+(?=.)", "");
                String nb = b.substring(sj, j).replaceFirst("^0+(?=.)", "");
                int c = na.length() != nb.length() ? Integer.compare(na.length(), nb.length()) : na.compareTo(nb);
                if (c != 0) return c;
            } else {
                if (ca != cb) return Character.compare(ca, cb);
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
