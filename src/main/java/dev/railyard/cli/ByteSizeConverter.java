package dev.railyard.cli;

import picocli.CommandLine;

import java.util.Locale;

/**
 * The one parser for sizes people type: "8", "64K", "128M", "2G", "1T" as nccl-tests and iperf3 read them (powers of
 * 1024), with an optional "B" or "iB" after the unit ("64KiB", "1MB" are 64 KiB and 1 MiB).
 */
public final class ByteSizeConverter implements CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        return parse(value);
    }

    public static long parse(String value) {
        String v = value.trim().toUpperCase(Locale.ROOT);
        if (v.endsWith("IB") && v.length() > 2) v = v.substring(0, v.length() - 2);
        else if (v.endsWith("B") && v.length() > 1) v = v.substring(0, v.length() - 1);
        long mult = 1;
        char last = v.isEmpty() ? ' ' : v.charAt(v.length() - 1);
        switch (last) {
            case 'K' -> mult = 1L << 10;
            case 'M' -> mult = 1L << 20;
            case 'G' -> mult = 1L << 30;
            case 'T' -> mult = 1L << 40;
            default -> { }
        }
        String digits = mult == 1 ? v : v.substring(0, v.length() - 1);
        try {
            long n = Long.parseLong(digits.trim());
            if (n < 0) throw new NumberFormatException();
            return Math.multiplyExact(n, mult);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a size (examples: 8, 64K, 128M, 2G)");
        }
    }
}
