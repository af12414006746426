package dev.railyard.collect;

import dev.railyard.model.Reading;
import dev.railyard.platform.HostRoot;

import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The PCI function behind a class device (sys/class/infiniband/mlx5_0, sys/class/net/eth0). The "device" link does
 * not always name the PCI function (virtio NICs link to "virtio2" under it), so this takes the last
 * domain:bus:device.function element of the resolved path.
 */
final class PciAddressOfClassDevice {

    private static final Pattern BDF = Pattern.compile("[0-9a-fA-F]{4,}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]");

    private PciAddressOfClassDevice() {}

    static Reading<String> find(HostRoot root, String classDevice) {
        // 1. where "device" really is (live sysfs, complete captures)
        Optional<String> viaReal = root.realPath(classDevice + "/device").optional().flatMap(PciAddressOfClassDevice::lastBdf);
        if (viaReal.isPresent()) return Reading.of(viaReal.get());
        // 2. the link text itself, when its target was not captured
        Optional<String> viaLink = root.readLink(classDevice + "/device").optional().flatMap(PciAddressOfClassDevice::lastBdf);
        if (viaLink.isPresent()) return Reading.of(viaLink.get());
        // 3. the class entry's own location: sys/devices/pci0000:00/0000:03:00.0/net/eth0
        Optional<String> viaSelf = root.realPath(classDevice).optional().flatMap(PciAddressOfClassDevice::lastBdf);
        if (viaSelf.isPresent()) return Reading.of(viaSelf.get());
        if (root.realPath(classDevice).optional().map(p -> p.contains("devices/virtual/")).orElse(false)) {
            return Reading.absent("virtual device");
        }
        return Reading.absent("no PCI device link");
    }

    static Optional<String> lastBdf(String path) {
        String found = null;
        for (Path element : Path.of(path)) {
            String e = element.toString();
            if (BDF.matcher(e).matches()) found = e;
        }
        return Optional.ofNullable(found);
    }
}
