package dev.railyard.report;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.HostInfo;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.PciDevice;
import dev.railyard.model.PcieLink;
import dev.railyard.model.PcieTopology;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.XidEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hand-written inventory JSON is the document Jackson writes, byte for byte: on the captured trees, and on made-up
 * inventories holding every field of every record in each reading state, with strings Jackson escapes or cuts and the
 * doubles it quotes. (ReaderMutationFuzzTest compares the two on its garbled trees as well.)
 */
class InventoryJsonTest {

    @TempDir
    Path dir;

    @Test
    void theCapturedTreesGiveJacksonsBytes() throws IOException {
        List<Path> trees = List.of(
                InventoryTextTrees.nodeExporter(Files.createDirectories(dir.resolve("a"))),
                InventoryTextTrees.procfs(Files.createDirectories(dir.resolve("b"))),
                InventoryTextTrees.gpudH100(Files.createDirectories(dir.resolve("c"))),
                InventoryTextTrees.nccl1573Roce(Files.createDirectories(dir.resolve("d"))),
                InventoryTextTrees.copyTree(Path.of("src/test/resources/trees/h200x4-capture"), dir.resolve("e")),
                Files.createDirectories(dir.resolve("empty")));
        for (Path tree : trees) {
            NodeInventory inv = InventoryTextTrees.collect(tree);
            JsonParity.assertSameDocument(InventoryJson.write(inv), Json.write(inv), tree.toString());
        }
    }

    @Test
    void everyFieldInEveryStateGivesJacksonsBytes() {
        for (int variant = 0; variant < 3; variant++) {
            NodeInventory inv = everything(variant);
            JsonParity.assertSameDocument(InventoryJson.write(inv), Json.write(inv), "variant " + variant);
        }
    }

    /** The made-up inventory reaches every record the model has: a record added to it must be added there, and here. */
    @Test
    void theMadeUpInventoryHoldsEveryRecordOfTheModel() {
        Set<Class<?>> reachable = new LinkedHashSet<>();
        records(NodeInventory.class, reachable);
        Set<Class<?>> held = new LinkedHashSet<>();
        held(everything(0), held);
        assertThat(held).containsAll(reachable);
    }

    @Test
    void stringsAreEscapedAndCutAsJacksonDoes() {
        StringBuilder controls = new StringBuilder();
        for (char c = 0; c < 0x80; c++) controls.append(c);
        controls.append("é€😀\uD800 \u2028\u0085");
        String huge = "x".repeat(5000) + "\uD83D\uDE00";
        for (String s : List.of(controls.toString(), huge, "x".repeat(4095) + "\uD83D\uDE00", "", "\"quoted\" \\ back")) {
            NodeInventory inv = everything(0);
            NodeInventory withString = new NodeInventory(s, inv.takenAt(), s, inv.host(), inv.pciDevices(), inv.gpu(),
                    inv.rdmaDevices(), inv.interfaces(), inv.topology(), Reading.absent(s));
            JsonParity.assertSameDocument(InventoryJson.write(withString), Json.write(withString), "string of " + s.length());
        }
    }

    @Test
    void doublesAreWrittenAsJacksonDoes() {
        for (double d : new double[] {0.0, -0.0, 1.0, 0.1, 1e-7, 123456789.125, 1e21, Double.MAX_VALUE, Double.MIN_VALUE,
                Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            NodeInventory inv = everything(0);
            Gpu g = inv.gpu().gpus().getFirst();
            Gpu withPower = new Gpu(g.index(), g.pciAddress(), g.source(), g.name(), g.uuid(), g.memory(), g.temperatureC(),
                    g.slowdownTemperatureC(), Reading.of(d), Reading.of(d), g.smClockMhz(), g.clockEvents(), g.ecc(),
                    g.remappedRows(), g.pcieLink(), g.nvlinks(), g.persistenceMode(), g.pcieReplays(), g.nvlinkErrors(),
                    g.activity());
            NodeInventory with = new NodeInventory(inv.hostname(), inv.takenAt(), inv.root(), inv.host(), inv.pciDevices(),
                    new GpuInventory(inv.gpu().nvml(), List.of(withPower)), inv.rdmaDevices(), inv.interfaces(),
                    inv.topology(), inv.xidEvents());
            JsonParity.assertSameDocument(InventoryJson.write(with), Json.write(with), "power " + d);
        }
    }

    /** Json's own order for what Jackson finds through is-methods: by name, after the record's fields, every run. */
    @Test
    void jacksonWritesARecordsIsMethodPropertiesByNameAfterItsFields() {
        String json = Json.write(everything(0));
        int unreadable = json.indexOf("\"unreadableIds\"");
        int network = json.indexOf("\"network\"");
        int nvidia = json.indexOf("\"nvidiaGpu\"");
        int rdma = json.indexOf("\"rdmaCapable\"");
        assertThat(List.of(unreadable, network, nvidia, rdma)).doesNotContain(-1).isSorted();
        assertThat(json.indexOf("\"hwCounters\"")).isLessThan(json.indexOf("\"ethernet\""));
        assertThat(json.indexOf("\"ethernet\"")).isLessThan(json.indexOf("\"infiniband\""));
    }

    @Test
    void nullsWhereTheModelAllowsThemAreWrittenAsJacksonDoes() {
        NodeInventory inv = new NodeInventory(null, null, null, null, List.of(), null, List.of(), List.of(), null, null);
        JsonParity.assertSameDocument(InventoryJson.write(inv), Json.write(inv), "nulls");
    }

    /**
     * An inventory with every record: variant 0 has every reading present, 1 every reading absent, 2 every reading
     * failed (where a record must hold a reading to exist at all, its own readings follow the variant).
     */
    static NodeInventory everything(int variant) {
        ReadingMaker r = new ReadingMaker(variant);
        PcieLink link = new PcieLink(5, 5, 16, 16);
        HostInfo host = new HostInfo(r.of("Ubuntu 24.04.3 LTS"), r.of("6.8.0-49-generic"),
                r.of(new HostInfo.MemlockLimit(false, 65536L * 1024)), r.of(4194304L), r.of(212992L),
                r.of(Map.of("performance", 64, "powersave", 2)), r.of(Map.of("nvidia", true, "mlx5_ib", false)),
                List.of(new HostInfo.NvmeDevice("nvme0n1", r.of("SAMSUNG MZ1L23T8HBLA-00A07"), r.of("S6EXNA0T"),
                        r.of("GDC7302Q"), r.of("pcie"), r.of("0000:c1:00.0"), r.of(3840755982336L))));
        List<PciDevice> pci = List.of(
                new PciDevice("0000:18:00.0", 0x10de, 0x2335, 0x030200, r.of("nvidia"), r.of(0), r.of(link),
                        List.of("pci0000:00", "0000:00:01.0"), false, List.of()),
                new PciDevice("0000:19:00.0", 0x15b3, 0x1021, 0x020000, r.of("mlx5_core"), r.of(1), r.of(link),
                        List.of(), true, List.of("vendor", "class")));
        Gpu gpu = new Gpu(0, "0000:18:00.0", Gpu.Source.NVML, r.of("NVIDIA H200"), r.of("GPU-5a4e"),
                r.of(new Gpu.Memory(150754820096L, 0)), r.of(31), r.of(90), r.of(76.5), r.of(700.0), r.of(1980),
                r.of(List.of(Gpu.ClockEvent.GPU_IDLE, Gpu.ClockEvent.SW_POWER_CAP)), r.of(new Gpu.EccCounts(0, 0, 3, 0)),
                r.of(new Gpu.RemappedRows(0, 0, false, false)), r.of(link),
                r.of(List.of(new Gpu.NvLink(0, true), new Gpu.NvLink(1, false))), r.of(true), r.of(0L),
                r.of(List.of(new Gpu.NvLinkErrors(0, 1, 2, 3, 4))),
                new Gpu.Activity(r.of(97), r.of(40), r.of(0), r.of(0), r.of(2619), r.of(44), r.of(123456789L),
                        r.of(1.5e9), r.of(2.5e9), r.of(987654L), r.of(new Gpu.Profile(r.of(0.875), r.of(0.8), r.of(0.4),
                                r.of(0.625), r.of(0.55), r.of(0.0), r.of(0.125), r.of(0.25)))));
        GpuInventory gpus = new GpuInventory(r.of(new GpuInventory.NvmlSystem("570.172.08", "12.8", "12.570.172.08")),
                List.of(gpu, new Gpu(1, "0000:2a:00.0", Gpu.Source.PCI_SYSFS, Reading.absent("no NVML"),
                        Reading.absent("no NVML"), Reading.absent("no NVML"), Reading.absent("no NVML"),
                        Reading.absent("no NVML"), Reading.absent("no NVML"), Reading.absent("no NVML"),
                        Reading.absent("no NVML"), Reading.of(List.of()), Reading.absent("no NVML"),
                        Reading.absent("no NVML"), Reading.failed("/sys/x", "Permission denied"), Reading.of(List.of()),
                        Reading.absent("no NVML"), Reading.absent("no NVML"), Reading.of(List.of()),
                        Gpu.Activity.absent("no NVML"))));
        Map<String, Reading<Long>> counters = new LinkedHashMap<>();
        counters.put("symbol_error", r.of(0L));
        counters.put("port_rcv_data", r.of(123456789012L));
        counters.put("link_downed", Reading.failed("/sys/class/infiniband/mlx5_0/ports/1/counters/link_downed", "EIO"));
        RdmaPort port = new RdmaPort("mlx5_0", 1, r.of(new RdmaPort.PortState(4, "ACTIVE")),
                r.of(new RdmaPort.PortState(5, "LinkUp")), r.of(new RdmaPort.LinkRate(400.0, "4X", "400 Gb/sec (4X NDR)")),
                r.of(variant == 0 ? "InfiniBand" : "Ethernet"), r.of(7), r.of(1),
                List.of(new RdmaPort.Gid(0, "fe80:0000:0000:0000:1070:fd03:00e5:0ed8", r.of(RdmaPort.GidType.IB), r.of("ib0")),
                        new RdmaPort.Gid(3, "0000:0000:0000:0000:0000:ffff:0a00:0001", r.of(RdmaPort.GidType.ROCE_V2), r.of("eth2"))),
                counters, Map.of("out_of_buffer", r.of(0L)));
        RdmaDevice rdma = new RdmaDevice("mlx5_0", r.of("28.39.1002"), r.of("1070:fd03:00e5:0ed8"), r.of("MT_0000000838"),
                r.of("MT4129"), r.of("0000:19:00.0"), List.of(port, new RdmaPort("mlx5_0", 2, Reading.absent("x"),
                Reading.absent("x"), Reading.absent("x"), Reading.absent("x"), Reading.absent("x"), Reading.absent("x"),
                List.of(), Map.of(), Map.of())));
        NetInterface nic = new NetInterface("ib0", r.of(4092), r.of(400000L), r.of("up"), r.of(true), r.of(2L),
                r.of("00:00:10:29:fe:80"), r.of("mlx5_core"), r.of("0000:19:00.0"), r.of(List.of("10.0.0.1/24", "fe80::1/64")),
                r.of("bond0"), List.of("eth0", "eth1"), r.of("datagram"), List.of(new NetInterface.RdmaPortRef("mlx5_0", 1)));
        PcieTopology topo = new PcieTopology(List.of(
                new PcieTopology.Endpoint(PcieTopology.Kind.GPU, "GPU0", "0000:18:00.0", r.of(0), r.of(link)),
                new PcieTopology.Endpoint(PcieTopology.Kind.NIC, "mlx5_0", "0000:19:00.0", r.of(1), r.of(link))),
                List.of(new PcieTopology.Pair("GPU0", "mlx5_0", PcieTopology.Affinity.PIX)));
        return new NodeInventory("gpu01.cluster.example", Instant.parse("2026-11-23T10:15:30.123456789Z"), "/",
                host, pci, gpus, List.of(rdma), List.of(nic), topo,
                r.of(List.of(new XidEvent("2026-11-23T10:00:00", "0000:18:00.0", 79, "GPU has fallen off the bus.",
                        "NVRM: Xid (PCI:0000:18:00): 79, pid=1234, GPU has fallen off the bus."))),
                List.of(new dev.railyard.model.Unlisted(dev.railyard.model.Unlisted.Subsystem.NET, "sys/class/net",
                        "symlink points outside the root: -> /sys/class/net")));
    }

    /** Readings in one state: present with the value, absent, or failed. */
    private record ReadingMaker(int variant) {
        <T> Reading<T> of(T value) {
            return switch (variant) {
                case 0 -> Reading.of(value);
                case 1 -> Reading.absent("not on this machine");
                default -> Reading.failed("/sys/x/\"y\"", "Input/output error\n");
            };
        }
    }

    private static void records(Type type, Set<Class<?>> seen) {
        switch (type) {
            case Class<?> c when c.isRecord() -> {
                if (!seen.add(c)) return;
                for (RecordComponent rc : c.getRecordComponents()) records(rc.getGenericType(), seen);
            }
            case ParameterizedType p -> {
                for (Type arg : p.getActualTypeArguments()) records(arg, seen);
            }
            default -> { }
        }
    }

    /** The record classes an object graph holds (readings' values, list elements, map values included). */
    private static void held(Object o, Set<Class<?>> seen) {
        switch (o) {
            case null -> { }
            case Reading.Present<?>(Object v) -> held(v, seen);
            case Reading<?> ignored -> { }
            case List<?> l -> l.forEach(e -> held(e, seen));
            case Map<?, ?> m -> m.values().forEach(v -> held(v, seen));
            case Record rec -> {
                seen.add(rec.getClass());
                for (RecordComponent rc : rec.getClass().getRecordComponents()) {
                    try {
                        held(rc.getAccessor().invoke(rec), seen);
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
            default -> { }
        }
    }
}
