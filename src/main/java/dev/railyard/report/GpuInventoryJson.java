package dev.railyard.report;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.Reading;

/** The GPU part of {@link InventoryJson}: NVML's versions and each GPU with its readings. */
final class GpuInventoryJson {

    private GpuInventoryJson() {
    }

    static void gpus(PrettyJson j, GpuInventory g) {
        if (g == null) {
            j.nullValue();
            return;
        }
        j.beginObject();
        j.name("nvml");
        InventoryJson.reading(j, g.nvml(), (w, s) -> w.beginObject().name("driverVersion").string(s.driverVersion())
                .name("cudaVersion").string(s.cudaVersion()).name("nvmlVersion").string(s.nvmlVersion()).endObject());
        j.name("gpus");
        InventoryJson.list(j, g.gpus(), GpuInventoryJson::gpu);
        j.endObject();
    }

    private static void gpu(PrettyJson j, Gpu g) {
        j.beginObject();
        j.name("index").number(g.index());
        j.name("pciAddress").string(g.pciAddress());
        j.name("source");
        InventoryJson.enumValue(j, g.source());
        j.name("name");
        InventoryJson.reading(j, g.name(), PrettyJson::string);
        j.name("uuid");
        InventoryJson.reading(j, g.uuid(), PrettyJson::string);
        j.name("memory");
        InventoryJson.reading(j, g.memory(), (w, m) -> {
            w.beginObject().name("totalBytes").number(m.totalBytes()).name("usedBytes").number(m.usedBytes());
            w.name("reservedBytes");
            InventoryJson.reading(w, m.reservedBytes(), PrettyJson::number);
            w.name("freeBytes").number(m.freeBytes());
            w.endObject();
        });
        j.name("temperatureC");
        InventoryJson.reading(j, g.temperatureC(), (w, n) -> w.number(n));
        j.name("slowdownTemperatureC");
        InventoryJson.reading(j, g.slowdownTemperatureC(), (w, n) -> w.number(n));
        j.name("powerWatts");
        InventoryJson.reading(j, g.powerWatts(), PrettyJson::number);
        j.name("powerLimitWatts");
        InventoryJson.reading(j, g.powerLimitWatts(), PrettyJson::number);
        j.name("smClockMhz");
        InventoryJson.reading(j, g.smClockMhz(), (w, n) -> w.number(n));
        j.name("clockEvents");
        InventoryJson.reading(j, g.clockEvents(), (w, events) -> InventoryJson.list(w, events, InventoryJson::enumValue));
        j.name("ecc");
        InventoryJson.reading(j, g.ecc(), (w, e) -> w.beginObject().name("volatileCorrected").number(e.volatileCorrected())
                .name("volatileUncorrected").number(e.volatileUncorrected())
                .name("aggregateCorrected").number(e.aggregateCorrected())
                .name("aggregateUncorrected").number(e.aggregateUncorrected()).endObject());
        j.name("remappedRows");
        InventoryJson.reading(j, g.remappedRows(), (w, r) -> w.beginObject().name("correctable").number(r.correctable())
                .name("uncorrectable").number(r.uncorrectable()).name("pending").bool(r.pending())
                .name("failure").bool(r.failure()).endObject());
        j.name("pcieLink");
        InventoryJson.reading(j, g.pcieLink(), InventoryJson::pcieLink);
        j.name("nvlinks");
        InventoryJson.reading(j, g.nvlinks(), (w, links) -> InventoryJson.list(w, links, (x, l) -> x.beginObject().name("link").number(l.link())
                .name("active").bool(l.active()).endObject()));
        j.name("persistenceMode");
        InventoryJson.reading(j, g.persistenceMode(), PrettyJson::bool);
        j.name("pcieReplays");
        InventoryJson.reading(j, g.pcieReplays(), PrettyJson::number);
        j.name("nvlinkErrors");
        InventoryJson.reading(j, g.nvlinkErrors(), (w, errors) -> InventoryJson.list(w, errors, (x, e) -> x.beginObject()
                .name("link").number(e.link()).name("replay").number(e.replay()).name("recovery").number(e.recovery())
                .name("crcFlit").number(e.crcFlit()).name("crcData").number(e.crcData()).endObject()));
        j.name("activity");
        activity(j, g.activity());
        j.endObject();
    }

    private static void activity(PrettyJson j, Gpu.Activity a) {
        j.beginObject();
        j.name("gpuUtilPercent");
        InventoryJson.reading(j, a.gpuUtilPercent(), (w, n) -> w.number(n));
        j.name("memoryCopyUtilPercent");
        InventoryJson.reading(j, a.memoryCopyUtilPercent(), (w, n) -> w.number(n));
        j.name("encoderUtilPercent");
        InventoryJson.reading(j, a.encoderUtilPercent(), (w, n) -> w.number(n));
        j.name("decoderUtilPercent");
        InventoryJson.reading(j, a.decoderUtilPercent(), (w, n) -> w.number(n));
        j.name("memoryClockMhz");
        InventoryJson.reading(j, a.memoryClockMhz(), (w, n) -> w.number(n));
        j.name("memoryTemperatureC");
        InventoryJson.reading(j, a.memoryTemperatureC(), (w, n) -> w.number(n));
        j.name("energyMillijoules");
        InventoryJson.reading(j, a.energyMillijoules(), PrettyJson::number);
        j.name("pcieTxBytesPerSecond");
        InventoryJson.reading(j, a.pcieTxBytesPerSecond(), PrettyJson::number);
        j.name("pcieRxBytesPerSecond");
        InventoryJson.reading(j, a.pcieRxBytesPerSecond(), PrettyJson::number);
        j.name("nvlinkDataKib");
        InventoryJson.reading(j, a.nvlinkDataKib(), PrettyJson::number);
        j.name("profile");
        InventoryJson.reading(j, a.profile(), GpuInventoryJson::profile);
        j.endObject();
    }

    private static void profile(PrettyJson j, Gpu.Profile p) {
        j.beginObject();
        ratio(j, "graphicsActive", p.graphicsActive());
        ratio(j, "smActive", p.smActive());
        ratio(j, "smOccupancy", p.smOccupancy());
        ratio(j, "tensorActive", p.tensorActive());
        ratio(j, "dramActive", p.dramActive());
        ratio(j, "fp64Active", p.fp64Active());
        ratio(j, "fp32Active", p.fp32Active());
        ratio(j, "fp16Active", p.fp16Active());
        j.endObject();
    }

    private static void ratio(PrettyJson j, String name, Reading<Double> r) {
        j.name(name);
        InventoryJson.reading(j, r, PrettyJson::number);
    }
}
