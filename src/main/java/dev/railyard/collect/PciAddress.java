package dev.railyard.collect;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * PCI addresses in the form sysfs uses ("0000:17:00.0"). NVML reports "00000000:17:00.0" in upper case, so
 * addresses from different sources are normalised before they are compared.
 */
public final class PciAddress {

    private static final Pattern FUNCTION = Pattern.compile("[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
    private static final Pattern HOST_BRIDGE = Pattern.compile("pci[0-9a-f]{4,8}:[0-9a-f]{2}");

    private PciAddress() {
    }

    /** Lower case, with an 8-digit domain cut to sysfs's 4 digits when its upper half is zero. */
    public static String normalize(String address) {
        String a = address.trim().toLowerCase(Locale.ROOT);
        int colon = a.indexOf(':');
        if (colon == 8 && a.startsWith("0000")) a = a.substring(4);
        return a;
    }

    /** "0000:17:00.0": a PCI function (device or bridge) as a sysfs path element. */
    public static boolean isFunction(String element) {
        return FUNCTION.matcher(element).matches();
    }

    /** "pci0000:00": a PCI host bridge (root complex) as a sysfs path element. */
    public static boolean isHostBridge(String element) {
        return HOST_BRIDGE.matcher(element).matches();
    }
}
