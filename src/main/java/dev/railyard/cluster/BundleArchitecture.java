package dev.railyard.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * The machine a bundle's runtime was built for, from the ELF header of its {@code runtime/bin/java} (jlink's
 * release file does not say): a bundle of the wrong machine would only fail on the node with "exec format error",
 * so {@link BundleChoice} picks by it before anything is copied.
 */
final class BundleArchitecture {

    /** ELF e_machine to uname -m. */
    private static final java.util.Map<Integer, String> ELF_MACHINES = java.util.Map.of(
            0x3E, "x86_64", 0xB7, "aarch64", 0xF3, "riscv64", 0x15, "ppc64le", 0x16, "s390x");

    private BundleArchitecture() {
    }

    /** uname -m's spelling for a JDK's os.arch or OS_ARCH ("amd64" is "x86_64", "arm64" is "aarch64"). */
    static String machine(String arch) {
        String a = arch.toLowerCase(Locale.ROOT);
        return switch (a) {
            case "amd64", "x64", "x86-64" -> "x86_64";
            case "arm64" -> "aarch64";
            default -> a;
        };
    }

    /** The bundle's machine, or empty when its tarball has no readable runtime/release. */
    static Optional<String> of(Path tarball) {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(tarball), 1 << 16)) {
            byte[] header = new byte[512];
            while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
                String name = field(header, 0, 100);
                String prefix = field(header, 345, 155);
                String octal = field(header, 124, 12).strip();
                long size = octal.isEmpty() ? 0 : Long.parseLong(octal, 8);
                String path = prefix.isEmpty() ? name : prefix + "/" + name;
                long padded = (size + 511) / 512 * 512;
                if (path.endsWith("runtime/bin/java") && size >= 20) {
                    byte[] elf = in.readNBytes(20);
                    if (elf[0] != 0x7F || elf[1] != 'E' || elf[2] != 'L' || elf[3] != 'F') return Optional.empty();
                    int machine = elf[5] == 1 ? (elf[18] & 0xFF) | (elf[19] & 0xFF) << 8 : (elf[19] & 0xFF) | (elf[18] & 0xFF) << 8;
                    return Optional.ofNullable(ELF_MACHINES.get(machine));
                }
                in.skipNBytes(padded);
            }
        } catch (IOException | RuntimeException e) {
            // an unreadable tarball fails where it is copied, with its own words; here it is only not judged
        }
        return Optional.empty();
    }

    /** A NUL-padded text field of a tar header (ustar). */
    private static String field(byte[] header, int offset, int length) {
        int end = offset;
        while (end < offset + length && header[end] != 0) end++;
        return new String(header, offset, end - offset, StandardCharsets.US_ASCII);
    }
}
