package dev.railyard.report;

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

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * {@code inventory --format json} written field by field, the same document {@link Json#write} makes of a
 * {@link NodeInventory} (docs/json.md) without Jackson. Jackson's first write of an inventory costs 17-21 ms on a GPU
 * machine (every record accessor reflected and invoked for the first time) after a warm-up thread of its own: more
 * than the whole margin to {@code nvidia-smi -q} on one GPU. InventoryJsonTest proves both give the same bytes on
 * every captured tree and on an inventory holding every field, so a field added to the model and not here fails it.
 */
public final class InventoryJson {

    private InventoryJson() {
    }

    /** The document, without a trailing newline, as {@link Json#write} would give it. */
    public static String write(NodeInventory inv) {
        PrettyJson j = new PrettyJson().beginObject();
        j.name("schemaVersion").number(Json.SCHEMA_VERSION);
        j.name("hostname").string(inv.hostname());
        j.name("takenAt");
        if (inv.takenAt() == null) j.nullValue();
        else j.string(inv.takenAt().toString());
        j.name("root").string(inv.root());
        j.name("host");
        host(j, inv.host());
        j.name("pciDevices");
        list(j, inv.pciDevices(), InventoryJson::pciDevice);
        j.name("gpu");
        GpuInventoryJson.gpus(j, inv.gpu());
        j.name("rdmaDevices");
        list(j, inv.rdmaDevices(), InventoryJson::rdmaDevice);
        j.name("interfaces");
        list(j, inv.interfaces(), InventoryJson::netInterface);
        j.name("topology");
        topology(j, inv.topology());
        j.name("xidEvents");
        reading(j, inv.xidEvents(), (w, events) -> list(w, events, InventoryJson::xidEvent));
        j.name("unlisted");
        list(j, inv.unlisted(), (w, u) -> w.beginObject().name("subsystem").string(u.subsystem().name())
                .name("path").string(u.path()).name("cause").string(u.cause()).endObject());
        return j.endObject().text();
    }

    private static void host(PrettyJson j, HostInfo h) {
        if (h == null) {
            j.nullValue();
            return;
        }
        j.beginObject();
        j.name("os");
        reading(j, h.os(), PrettyJson::string);
        j.name("kernel");
        reading(j, h.kernel(), PrettyJson::string);
        j.name("memlock");
        reading(j, h.memlock(), (w, m) -> w.beginObject().name("unlimited").bool(m.unlimited())
                .name("bytes").number(m.bytes()).endObject());
        j.name("rmemMax");
        reading(j, h.rmemMax(), PrettyJson::number);
        j.name("wmemMax");
        reading(j, h.wmemMax(), PrettyJson::number);
        j.name("cpuGovernors");
        reading(j, h.cpuGovernors(), (w, m) -> map(w, m, (x, n) -> x.number(n)));
        j.name("modules");
        reading(j, h.modules(), (w, m) -> map(w, m, PrettyJson::bool));
        j.name("nvme");
        list(j, h.nvme(), InventoryJson::nvme);
        j.name("ncclVersion");
        reading(j, h.ncclVersion(), PrettyJson::string);
        j.endObject();
    }

    private static void nvme(PrettyJson j, HostInfo.NvmeDevice d) {
        j.beginObject();
        j.name("name").string(d.name());
        j.name("model");
        reading(j, d.model(), PrettyJson::string);
        j.name("serial");
        reading(j, d.serial(), PrettyJson::string);
        j.name("firmware");
        reading(j, d.firmware(), PrettyJson::string);
        j.name("transport");
        reading(j, d.transport(), PrettyJson::string);
        j.name("pciAddress");
        reading(j, d.pciAddress(), PrettyJson::string);
        j.name("sizeBytes");
        reading(j, d.sizeBytes(), PrettyJson::number);
        j.endObject();
    }

    private static void pciDevice(PrettyJson j, PciDevice d) {
        j.beginObject();
        j.name("address").string(d.address());
        j.name("vendorId").number(d.vendorId());
        j.name("deviceId").number(d.deviceId());
        j.name("classCode").number(d.classCode());
        j.name("driver");
        reading(j, d.driver(), PrettyJson::string);
        j.name("numaNode");
        reading(j, d.numaNode(), (w, n) -> w.number(n));
        j.name("link");
        reading(j, d.link(), InventoryJson::pcieLink);
        j.name("upstreamPath");
        list(j, d.upstreamPath(), PrettyJson::string);
        j.name("virtualFunction").bool(d.virtualFunction());
        j.name("unreadableIds");
        list(j, d.unreadableIds(), PrettyJson::string);
        // what Jackson also writes: the record's public is-methods, by name (Json's RecordOrder)
        j.name("network").bool(d.isNetwork());
        j.name("nvidiaGpu").bool(d.isNvidiaGpu());
        j.name("rdmaCapable").bool(d.isRdmaCapable());
        j.endObject();
    }

    static void pcieLink(PrettyJson j, PcieLink l) {
        j.beginObject();
        j.name("currentGen").number(l.currentGen());
        j.name("maxGen").number(l.maxGen());
        j.name("currentWidth").number(l.currentWidth());
        j.name("maxWidth").number(l.maxWidth());
        j.endObject();
    }

    private static void rdmaDevice(PrettyJson j, RdmaDevice d) {
        j.beginObject();
        j.name("name").string(d.name());
        j.name("firmwareVersion");
        reading(j, d.firmwareVersion(), PrettyJson::string);
        j.name("nodeGuid");
        reading(j, d.nodeGuid(), PrettyJson::string);
        j.name("boardId");
        reading(j, d.boardId(), PrettyJson::string);
        j.name("hcaType");
        reading(j, d.hcaType(), PrettyJson::string);
        j.name("pciAddress");
        reading(j, d.pciAddress(), PrettyJson::string);
        j.name("ports");
        list(j, d.ports(), InventoryJson::rdmaPort);
        j.endObject();
    }

    private static void rdmaPort(PrettyJson j, RdmaPort p) {
        j.beginObject();
        j.name("device").string(p.device());
        j.name("port").number(p.port());
        j.name("state");
        reading(j, p.state(), InventoryJson::portState);
        j.name("physState");
        reading(j, p.physState(), InventoryJson::portState);
        j.name("rate");
        reading(j, p.rate(), (w, r) -> w.beginObject().name("gbps").number(r.gbps()).name("width").string(r.width())
                .name("raw").string(r.raw()).endObject());
        j.name("linkLayer");
        reading(j, p.linkLayer(), PrettyJson::string);
        j.name("lid");
        reading(j, p.lid(), (w, n) -> w.number(n));
        j.name("smLid");
        reading(j, p.smLid(), (w, n) -> w.number(n));
        j.name("gids");
        list(j, p.gids(), (w, g) -> {
            w.beginObject().name("index").number(g.index()).name("gid").string(g.gid()).name("type");
            reading(w, g.type(), InventoryJson::enumValue);
            w.name("netdev");
            reading(w, g.netdev(), PrettyJson::string);
            w.endObject();
        });
        j.name("counters");
        map(j, p.counters(), (w, r) -> reading(w, r, PrettyJson::number));
        j.name("hwCounters");
        map(j, p.hwCounters(), (w, r) -> reading(w, r, PrettyJson::number));
        j.name("pkeys");
        reading(j, p.pkeys(), (w, keys) -> list(w, keys, (x, k) -> x.number(k)));
        j.name("ethernet").bool(p.isEthernet());
        j.name("infiniband").bool(p.isInfiniband());
        j.endObject();
    }

    private static void portState(PrettyJson j, RdmaPort.PortState s) {
        j.beginObject().name("code").number(s.code()).name("name").string(s.name()).endObject();
    }

    private static void netInterface(PrettyJson j, NetInterface n) {
        j.beginObject();
        j.name("name").string(n.name());
        j.name("mtu");
        reading(j, n.mtu(), (w, v) -> w.number(v));
        j.name("speedMbps");
        reading(j, n.speedMbps(), PrettyJson::number);
        j.name("operState");
        reading(j, n.operState(), PrettyJson::string);
        j.name("carrier");
        reading(j, n.carrier(), PrettyJson::bool);
        j.name("carrierChanges");
        reading(j, n.carrierChanges(), PrettyJson::number);
        j.name("mac");
        reading(j, n.mac(), PrettyJson::string);
        j.name("driver");
        reading(j, n.driver(), PrettyJson::string);
        j.name("pciAddress");
        reading(j, n.pciAddress(), PrettyJson::string);
        j.name("addresses");
        reading(j, n.addresses(), (w, a) -> list(w, a, PrettyJson::string));
        j.name("bondMaster");
        reading(j, n.bondMaster(), PrettyJson::string);
        j.name("bondSlaves");
        list(j, n.bondSlaves(), PrettyJson::string);
        j.name("ipoibMode");
        reading(j, n.ipoibMode(), PrettyJson::string);
        j.name("rdmaPorts");
        list(j, n.rdmaPorts(), (w, r) -> w.beginObject().name("device").string(r.device()).name("port").number(r.port())
                .endObject());
        NetInterface.InfoLabels info = n.info();
        j.name("info").beginObject().name("broadcast").string(info.broadcast()).name("duplex").string(info.duplex())
                .name("adminState").string(info.adminState()).name("ifalias").string(info.ifalias()).endObject();
        j.endObject();
    }

    private static void topology(PrettyJson j, PcieTopology t) {
        if (t == null) {
            j.nullValue();
            return;
        }
        j.beginObject();
        j.name("endpoints");
        list(j, t.endpoints(), (w, e) -> {
            w.beginObject().name("kind");
            enumValue(w, e.kind());
            w.name("name").string(e.name()).name("pciAddress").string(e.pciAddress()).name("numaNode");
            reading(w, e.numaNode(), (x, n) -> x.number(n));
            w.name("link");
            reading(w, e.link(), InventoryJson::pcieLink);
            w.endObject();
        });
        j.name("pairs");
        list(j, t.pairs(), (w, p) -> {
            w.beginObject().name("gpu").string(p.gpu()).name("nic").string(p.nic()).name("affinity");
            enumValue(w, p.affinity());
            w.endObject();
        });
        j.endObject();
    }

    private static void xidEvent(PrettyJson j, XidEvent e) {
        j.beginObject();
        j.name("timestamp").string(e.timestamp());
        j.name("pciAddress").string(e.pciAddress());
        j.name("xid").number(e.xid());
        j.name("message").string(e.message());
        j.name("line").string(e.line());
        j.endObject();
    }

    /** ReadingJson's form: {"state": "present", "value": ...}, {"state": "absent", ...} or {"state": "failed", ...}. */
    static <T> void reading(PrettyJson j, Reading<T> r, BiConsumer<PrettyJson, T> value) {
        if (r == null) {
            j.nullValue();
            return;
        }
        j.beginObject();
        switch (r) {
            case Reading.Present<T>(T v) -> {
                j.name("state").string("present");
                j.name("value");
                value.accept(j, v);
            }
            // ReadingJson writes these itself, past the mapper's cutting of long strings
            case Reading.Absent<T>(String reason) -> j.name("state").string("absent").name("reason").uncutString(reason);
            case Reading.Failed<T>(String path, String cause) ->
                    j.name("state").string("failed").name("path").uncutString(path).name("cause").uncutString(cause);
        }
        j.endObject();
    }

    static <T> void list(PrettyJson j, List<T> items, BiConsumer<PrettyJson, T> item) {
        if (items == null) {
            j.nullValue();
            return;
        }
        j.beginArray();
        for (T t : items) {
            if (t == null) j.nullValue();
            else item.accept(j, t);
        }
        j.endArray();
    }

    /** Keys in order, as the mapper's ORDER_MAP_ENTRIES_BY_KEYS writes them. */
    static <V> void map(PrettyJson j, Map<String, V> m, BiConsumer<PrettyJson, V> value) {
        if (m == null) {
            j.nullValue();
            return;
        }
        j.beginObject();
        for (Map.Entry<String, V> e : new TreeMap<>(m).entrySet()) {
            j.name(e.getKey());
            if (e.getValue() == null) j.nullValue();
            else value.accept(j, e.getValue());
        }
        j.endObject();
    }

    static void enumValue(PrettyJson j, Enum<?> e) {
        if (e == null) j.nullValue();
        else j.string(e.name());
    }
}
