package dev.railyard.collect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Builds a sysfs PCI tree the way the kernel lays it out: each function is a directory under
 * sys/devices/pciDDDD:BB/... nested below its bridges, and sys/bus/pci/devices/ADDR is a relative symlink to it.
 * Bridges on a device's path are created as bridge functions (class 0x060400) when first seen.
 */
public final class PciTree {

    public static final int NVIDIA = 0x10de;
    public static final int MELLANOX = 0x15b3;

    private final Path root;

    public PciTree(Path root) {
        this.root = root;
    }

    /** A GPU (3D controller) at e.g. "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0". */
    public PciTree gpu(String path, int numa) {
        return function(path, NVIDIA, 0x2901, 0x030200, numa, "nvidia");
    }

    /** A ConnectX-7 function (InfiniBand-mode network controller 0x0207). */
    public PciTree nic(String path, int numa) {
        return function(path, MELLANOX, 0x1021, 0x020700, numa, "mlx5_core");
    }

    public PciTree function(String path, int vendor, int device, int classCode, int numa, String driver) {
        String[] parts = path.split("/");
        StringBuilder prefix = new StringBuilder(parts[0]);
        for (int i = 1; i < parts.length - 1; i++) {
            prefix.append('/').append(parts[i]);
            if (!Files.exists(root.resolve("sys/bus/pci/devices/" + parts[i]))) {
                write(prefix.toString(), 0x10b5, 0xc030, 0x060400, numa, "pcieport");
            }
        }
        write(path, vendor, device, classCode, numa, driver);
        return this;
    }

    /** Marks an existing function as an SR-IOV virtual function of {@code physfn}. */
    PciTree virtualFunctionOf(String address, String physfn) {
        try {
            Files.createSymbolicLink(root.resolve("sys/bus/pci/devices/" + address).toRealPath().resolve("physfn"),
                    Path.of("../" + physfn));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    private void write(String path, int vendor, int device, int classCode, int numa, String driver) {
        String address = path.substring(path.lastIndexOf('/') + 1);
        try {
            Path dir = Files.createDirectories(root.resolve("sys/devices/" + path));
            Files.writeString(dir.resolve("vendor"), String.format("0x%04x%n", vendor));
            Files.writeString(dir.resolve("device"), String.format("0x%04x%n", device));
            Files.writeString(dir.resolve("class"), String.format("0x%06x%n", classCode));
            Files.writeString(dir.resolve("numa_node"), numa + "\n");
            Files.writeString(dir.resolve("current_link_speed"), "32.0 GT/s PCIe\n");
            Files.writeString(dir.resolve("max_link_speed"), "32.0 GT/s PCIe\n");
            Files.writeString(dir.resolve("current_link_width"), "16\n");
            Files.writeString(dir.resolve("max_link_width"), "16\n");
            Path drivers = Files.createDirectories(root.resolve("sys/bus/pci/drivers/" + driver));
            Files.createSymbolicLink(dir.resolve("driver"), dir.relativize(drivers));
            Path link = root.resolve("sys/bus/pci/devices/" + address);
            Files.createDirectories(link.getParent());
            Files.createSymbolicLink(link, Path.of("../../../devices/" + path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
