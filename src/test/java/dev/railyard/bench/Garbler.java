package dev.railyard.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** Seeded damage to a real sample: cut it, drop or repeat lines, overwrite characters, split tokens. */
public final class Garbler {

    private static final String NOISE = "0123456789.:-#[]/ \t\nN/AxXé\u0000";

    private Garbler() {}

    public static List<String> variants(String text, long seed, int count) {
        Random rnd = new Random(seed);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) out.add(garble(text, rnd));
        return out;
    }

    private static String garble(String text, Random rnd) {
        if (text.isEmpty()) return text;
        return switch (rnd.nextInt(5)) {
            case 0 -> text.substring(0, rnd.nextInt(text.length()));
            case 1 -> {
                List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
                lines.remove(rnd.nextInt(lines.size()));
                yield String.join("\n", lines);
            }
            case 2 -> {
                List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
                int at = rnd.nextInt(lines.size());
                String l = lines.get(at);
                lines.set(at, l.isEmpty() ? l : l.substring(0, rnd.nextInt(l.length())));
                yield String.join("\n", lines);
            }
            case 3 -> {
                StringBuilder sb = new StringBuilder(text);
                for (int k = 0; k < 1 + rnd.nextInt(8); k++) {
                    sb.setCharAt(rnd.nextInt(sb.length()), NOISE.charAt(rnd.nextInt(NOISE.length())));
                }
                yield sb.toString();
            }
            default -> {
                StringBuilder sb = new StringBuilder(text);
                sb.insert(rnd.nextInt(sb.length()), NOISE.charAt(rnd.nextInt(NOISE.length())));
                yield sb.toString();
            }
        };
    }
}
