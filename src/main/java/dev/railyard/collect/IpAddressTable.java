package dev.railyard.collect;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.platform.JsonMapperFactory;
import dev.railyard.model.Reading;
import dev.railyard.platform.HostRoot;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.Comparator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Interface name to its addresses ("10.0.0.1/24", "fe80::1/64"). Sysfs has no addresses: on a live root they come
 * from the kernel through the JDK (netlink, no subprocess: spawning {@code ip} cost a quarter of the inventory's
 * time, and some GPU hosts have no iproute2); a capture stores them as railyard/ip-address.json in the shape of
 * {@code ip -j address show}, so a user's own ip output can be dropped in too.
 */
record IpAddressTable(Map<String, List<String>> byInterface) {

    static final String CAPTURED_FILE = "railyard/ip-address.json";

    IpAddressTable {
        byInterface = Map.copyOf(byInterface);
    }

    /** The addresses of one interface; an interface that ip does not list has none. */
    Reading<List<String>> of(String name) {
        return Reading.of(byInterface.getOrDefault(name, List.of()));
    }

    static Reading<IpAddressTable> read(HostRoot root) {
        if (!root.isLive()) {
            if (!root.exists(CAPTURED_FILE)) return Reading.absent("not captured (no " + CAPTURED_FILE + ")");
            Reading<String> text = root.read(CAPTURED_FILE);
            if (!(text instanceof Reading.Present<String>(String json))) return text.map(x -> null);
            return parse(CAPTURED_FILE, json);
        }
        return live();
    }

    /** This machine's addresses as the kernel reports them. */
    static Reading<IpAddressTable> live() {
        Map<String, List<String>> table = new LinkedHashMap<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                List<String> addresses = new ArrayList<>();
                for (InterfaceAddress a : nic.getInterfaceAddresses()) {
                    addresses.add(text(a.getAddress()) + "/" + a.getNetworkPrefixLength());
                }
                addresses.sort(Comparator.comparing((String x) -> x.contains(":"))); // IPv4 first, as ip lists them
                table.put(nic.getName(), List.copyOf(addresses));
            }
        } catch (SocketException e) {
            return Reading.failed("netlink (java.net.NetworkInterface)", String.valueOf(e.getMessage()));
        }
        return Reading.of(new IpAddressTable(table));
    }

    /** As ip prints it: dotted IPv4, IPv6 with the longest run of zero groups as "::" and no "%scope". */
    static String text(InetAddress address) {
        if (!(address instanceof Inet6Address)) return address.getHostAddress();
        byte[] b = address.getAddress();
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) groups[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
        int bestStart = -1, bestLen = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && groups[j] == 0) j++;
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append(i == 0 ? "::" : ":");
                i += bestLen - 1;
                continue;
            }
            out.append(Integer.toHexString(groups[i]));
            if (i < 7) out.append(':');
        }
        return out.toString();
    }

    /** The table in the shape of {@code ip -j address show}, for a capture. */
    String toIpJson() {
        var root = JsonMapperFactory.shared().createArrayNode();
        byInterface.forEach((name, addresses) -> {
            var link = root.addObject().put("ifname", name);
            var info = link.putArray("addr_info");
            for (String a : addresses) {
                int slash = a.lastIndexOf('/');
                info.addObject().put("family", a.contains(":") ? "inet6" : "inet")
                        .put("local", a.substring(0, slash)).put("prefixlen", Integer.parseInt(a.substring(slash + 1)));
            }
        });
        return root.toPrettyString();
    }

    /** Parses the JSON array that {@code ip -j address show} prints. */
    static Reading<IpAddressTable> parse(String source, String json) {
        JsonNode tree;
        try {
            // text after the array (two outputs run together, a cut write) is a garbled file, not one to half-read
            tree = JsonMapperFactory.shared().reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(json);
        } catch (JsonProcessingException e) {
            return Reading.failed(source, "not JSON: " + e.getOriginalMessage());
        }
        if (tree == null || !tree.isArray()) return Reading.failed(source, "expected a JSON array of interfaces");
        Map<String, List<String>> table = new LinkedHashMap<>();
        for (JsonNode link : tree) {
            String name = link.path("ifname").asText("");
            if (name.isEmpty()) continue;
            List<String> addresses = new ArrayList<>();
            for (JsonNode a : link.path("addr_info")) {
                String local = a.path("local").asText("");
                if (local.isEmpty()) continue;
                addresses.add(a.has("prefixlen") ? local + "/" + a.path("prefixlen").asInt() : local);
            }
            table.merge(name, List.copyOf(addresses), (x, y) -> {
                List<String> both = new ArrayList<>(x);
                both.addAll(y);
                return List.copyOf(both);
            });
        }
        return Reading.of(new IpAddressTable(table));
    }
}
