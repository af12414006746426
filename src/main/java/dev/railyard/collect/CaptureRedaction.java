package dev.railyard.collect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code capture --redact}: replaces what identifies a site or a machine in every text file of a capture, the same
 * value always by the same stand-in so the capture still reads as one consistent node. IPv4 addresses keep their
 * last octet and their /24 (a rail's 10.0.0.1 and 10.0.0.2 stay neighbours, now in 198.18.N.0/24) and the RoCE GIDs
 * that embed them follow; MACs become locally administered ones; node/port GUIDs and the interface ID of link-local
 * GIDs are replaced; hostnames, GPU UUIDs and serial numbers are replaced whole.
 */
final class CaptureRedaction {

    private static final Pattern IPV4 = Pattern.compile("(?<![\\d.])(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})(?![\\d.])");
    /** An IPv4-mapped GID as sysfs writes it (0000:...:ffff:0a00:0001); the short form ::ffff:10.0.0.1 is an IPv4 hit. */
    private static final Pattern MAPPED_GID = Pattern.compile("(?i)(0000:0000:0000:0000:0000:ffff:)([0-9a-f]{4}):([0-9a-f]{4})");
    /** A GUID (node_guid, sys_image_guid) or the interface ID of a GID: four groups of four hex digits. */
    private static final Pattern GUID = Pattern.compile("(?i)(?<![0-9a-f:])([0-9a-f]{4}:[0-9a-f]{4}:[0-9a-f]{4}:[0-9a-f]{4})(?![0-9a-f:])");
    private static final Pattern LINK_LOCAL_GID = Pattern.compile("(?i)(fe80:0000:0000:0000:)([0-9a-f]{4}:[0-9a-f]{4}:[0-9a-f]{4}:[0-9a-f]{4})");
    /** Ethernet MACs (6 octets) and InfiniBand hardware addresses (20 octets), colon separated. */
    private static final Pattern MAC = Pattern.compile("(?i)(?<![0-9a-f:])([0-9a-f]{2}(?::[0-9a-f]{2}){19}|[0-9a-f]{2}(?::[0-9a-f]{2}){5})(?![0-9a-f:])");
    /** Compressed IPv6 ("fe80::268a:7ff:fe52:aab1", "2001:db8::5"): link-local ones carry the MAC. */
    private static final Pattern IPV6 = Pattern.compile(
            "(?i)(?<![0-9a-f:])[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*::(?:[0-9a-f]{1,4}:)*[0-9a-f]{1,4}(?![0-9a-f:.])");
    private static final Pattern GPU_UUID = Pattern.compile("(?i)GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Pattern XML_SERIAL = Pattern.compile("(<(?:serial|board_id|module_id)>)([^<]*)(</)");
    /** sysfs files whose whole content is a serial number. */
    private static final List<String> SERIAL_FILES = List.of("serial", "product_serial", "board_serial", "chassis_serial",
            "product_uuid", "serial_number");

    private final Map<String, String> networks = new HashMap<>();
    private final Map<String, String> macs = new HashMap<>();
    private final Map<String, String> guids = new HashMap<>();
    private final Map<String, String> whole = new HashMap<>();
    private final List<String> hostnames = new ArrayList<>();
    private int replaced;

    private CaptureRedaction() {
    }

    /** Redacts every regular text file under {@code tree} in place; returns how many values were replaced. */
    static int redact(Path tree) {
        CaptureRedaction r = new CaptureRedaction();
        r.hostnamesFrom(tree);
        try (Stream<Path> files = Files.walk(tree)) {
            for (Path f : files.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).sorted().toList()) {
                r.file(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return r.replaced;
    }

    private void hostnamesFrom(Path tree) {
        for (String f : List.of("proc/sys/kernel/hostname", "etc/hostname")) {
            try {
                Path p = tree.resolve(f);
                if (!Files.isRegularFile(p)) continue;
                String name = Files.readString(p).strip();
                if (name.isEmpty() || name.equals("localhost")) continue;
                if (!hostnames.contains(name)) hostnames.add(name);
                String shortName = name.contains(".") ? name.substring(0, name.indexOf('.')) : name;
                if (!hostnames.contains(shortName)) hostnames.add(shortName);
            } catch (IOException ignored) {
                // an unreadable hostname file has nothing to redact
            }
        }
        hostnames.sort((a, b) -> b.length() - a.length()); // the FQDN before its short form
    }

    private void file(Path f) throws IOException {
        byte[] bytes = Files.readAllBytes(f);
        for (byte b : bytes) if (b == 0) return; // binary: not something the readers parse as text
        String text = new String(bytes, StandardCharsets.UTF_8);
        String out = SERIAL_FILES.contains(f.getFileName().toString()) && !text.isBlank()
                ? wholeValue("serial", text.strip()) + "\n" : text(text);
        if (!out.equals(text)) Files.writeString(f, out, StandardCharsets.UTF_8);
    }

    String text(String text) {
        String s = text;
        for (String h : hostnames) {
            // Whole names only: a host called "gpu" must not turn "gpus" into something else.
            s = replace(s, Pattern.compile("(?<![A-Za-z0-9_-])" + Pattern.quote(h) + "(?![A-Za-z0-9_-])"), m -> "redacted-node");
        }
        s = replace(s, XML_SERIAL, m -> m.group(1) + wholeValue(m.group(1), m.group(2)) + m.group(3));
        s = replace(s, GPU_UUID, m -> wholeValue("GPU", m.group().toLowerCase(Locale.ROOT)));
        s = replace(s, MAPPED_GID, m -> {
            int hi = Integer.parseInt(m.group(2), 16);
            int lo = Integer.parseInt(m.group(3), 16);
            String v4 = ipv4((hi >> 8) + "." + (hi & 0xff) + "." + (lo >> 8) + "." + (lo & 0xff));
            String[] o = v4.split("\\.");
            return m.group(1) + String.format("%02x%02x:%02x%02x", Integer.parseInt(o[0]), Integer.parseInt(o[1]),
                    Integer.parseInt(o[2]), Integer.parseInt(o[3]));
        });
        s = replace(s, LINK_LOCAL_GID, m -> m.group(1) + guid(m.group(2)));
        s = replace(s, IPV6, m -> ipv6(m.group()));
        s = replace(s, MAC, m -> mac(m.group(1)));
        s = replace(s, GUID, m -> guid(m.group(1)));
        s = replace(s, IPV4, m -> ipv4(m.group()));
        return s;
    }

    private String replace(String s, Pattern p, java.util.function.Function<Matcher, String> f) {
        Matcher m = p.matcher(s);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String r = f.apply(m);
            if (!r.equals(m.group())) replaced++;
            m.appendReplacement(sb, Matcher.quoteReplacement(r));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** 10.0.0.1 -> 198.18.N.1, the same N for every address of 10.0.0.0/24; loopback, masks and multicast stay. */
    private String ipv4(String address) {
        String[] o = address.split("\\.");
        int first = Integer.parseInt(o[0]);
        for (String octet : o) if (Integer.parseInt(octet) > 255) return address;
        if (first == 0 || first == 127 || first >= 224 || address.startsWith("255.") || address.startsWith("169.254.")) {
            return address;
        }
        String net = o[0] + "." + o[1] + "." + o[2];
        String mapped = networks.computeIfAbsent(net, n -> {
            int i = networks.size();
            return "198." + (18 + i / 256) + "." + (i % 256);
        });
        return mapped + "." + o[3];
    }

    private String ipv6(String address) {
        String lower = address.toLowerCase(Locale.ROOT);
        return whole.computeIfAbsent("ipv6\u0000" + lower, k -> {
            int i = (int) whole.keySet().stream().filter(x -> x.startsWith("ipv6\u0000")).count() + 1;
            return (lower.startsWith("fe80") ? "fe80::200:0:0:" : "2001:db8::") + Integer.toHexString(i);
        });
    }

    private String mac(String mac) {
        String lower = mac.toLowerCase(Locale.ROOT);
        if (lower.matches("[0:]+") || lower.matches("[f:]+")) return mac;
        return macs.computeIfAbsent(lower, m -> {
            int i = macs.size() + 1;
            String tail = String.format("%02x:%02x", (i >> 8) & 0xff, i & 0xff);
            // An InfiniBand address keeps its first 4 octets (QP flags and number) and ends in a redacted port GUID.
            return m.length() > 17 ? m.substring(0, 12) + "fe:80:00:00:00:00:00:00:02:00:00:00:00:00:" + tail
                    : "02:00:00:00:" + tail;
        });
    }

    private String guid(String guid) {
        String lower = guid.toLowerCase(Locale.ROOT);
        if (lower.equals("0000:0000:0000:0000")) return guid;
        return guids.computeIfAbsent(lower, g -> String.format("0200:0000:0000:%04x", guids.size() + 1));
    }

    private String wholeValue(String kind, String value) {
        if (value.isBlank() || value.equalsIgnoreCase("N/A")) return value;
        // GPU UUIDs keep their form; every other serial shares one numbering, so equal values get equal stand-ins.
        String key = (kind.equals("GPU") ? "GPU" : "serial") + "\u0000" + value;
        return whole.computeIfAbsent(key, k -> {
            String prefix = key.substring(0, key.indexOf('\u0000') + 1);
            int i = (int) whole.keySet().stream().filter(x -> x.startsWith(prefix)).count() + 1;
            return kind.equals("GPU") ? String.format("GPU-00000000-0000-0000-0000-%012d", i) : "REDACTED-" + i;
        });
    }
}
