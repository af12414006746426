package dev.railyard.collect;

import dev.railyard.model.Gpu;
import dev.railyard.model.Gpu.ClockEvent;
import dev.railyard.model.Gpu.Memory;
import dev.railyard.model.Gpu.NvLink;
import dev.railyard.model.PcieLink;
import dev.railyard.model.Reading;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * One {@code <gpu>} element of nvidia-smi -q -x as a {@link Gpu}, field by field, so one N/A or garbled value
 * leaves only that field absent or failed. Element names follow DTD v11 to v13; where a name changed
 * (power_readings → gpu_power_readings, clocks_throttle_reasons → clocks_event_reasons) both are read.
 */
final class NvidiaSmiXmlGpu {

    private static final long MIB = 1024L * 1024L;

    /** nvidia-smi's reason names (after the clocks_event_reason_ / clocks_throttle_reason_ prefix). */
    private static final Map<String, ClockEvent> CLOCK_EVENTS = Map.of(
            "gpu_idle", ClockEvent.GPU_IDLE,
            "applications_clocks_setting", ClockEvent.APPLICATIONS_CLOCKS_SETTING,
            "sw_power_cap", ClockEvent.SW_POWER_CAP,
            "hw_slowdown", ClockEvent.HW_SLOWDOWN,
            "sync_boost", ClockEvent.SYNC_BOOST,
            "sw_thermal_slowdown", ClockEvent.SW_THERMAL_SLOWDOWN,
            "hw_thermal_slowdown", ClockEvent.HW_THERMAL_SLOWDOWN,
            "hw_power_brake_slowdown", ClockEvent.HW_POWER_BRAKE_SLOWDOWN,
            "display_clocks_setting", ClockEvent.DISPLAY_CLOCK_SETTING);

    /** The reasons gpu.throttle judges: a section without one of them cannot say the GPU is not slowed down. */
    private static final Set<String> JUDGED_EVENTS = Set.of("hw_slowdown", "sw_thermal_slowdown", "hw_thermal_slowdown",
            "hw_power_brake_slowdown");

    private NvidiaSmiXmlGpu() {
    }

    static Gpu read(int index, NvidiaSmiXmlNode gpu) {
        Optional<NvidiaSmiXmlNode> temperature = gpu.child("temperature");
        Optional<NvidiaSmiXmlNode> power = gpu.firstChild("gpu_power_readings", "power_readings");
        return new Gpu(index, pciAddress(gpu), Gpu.Source.NVIDIA_SMI_CAPTURE,
                gpu.text("product_name"),
                gpu.text("uuid"),
                memory(gpu),
                under(gpu, temperature, "temperature", t -> t.integer("C", "gpu_temp")),
                under(gpu, temperature, "temperature", t -> t.integer("C", "gpu_temp_slow_threshold")),
                under(gpu, power, "gpu_power_readings", p -> p.number("W", "power_draw", "instant_power_draw")),
                under(gpu, power, "gpu_power_readings",
                        p -> p.number("W", "enforced_power_limit", "current_power_limit", "power_limit")),
                under(gpu, gpu.child("clocks"), "clocks", c -> c.integer("MHz", "sm_clock")),
                clockEvents(gpu),
                NvidiaSmiXmlEcc.counts(gpu),
                NvidiaSmiXmlEcc.remappedRows(gpu),
                pcieLink(gpu),
                nvlinks(gpu),
                gpu.flag("Enabled", "Disabled", "persistence_mode"),
                under(gpu, gpu.child("pci"), "pci", p -> p.whole("", "replay_counter")),
                Reading.absent("NVLink error counters are read through NVML only (source " + Gpu.Source.NVIDIA_SMI_CAPTURE + ")"),
                activity(gpu, temperature));
    }

    /**
     * Utilisation, memory clock and temperature, and PCIe traffic as nvidia-smi printed them. nvidia-smi's tx_util and
     * rx_util are nvmlDeviceGetPcieThroughput's KB/s over 20 ms (1 KB = 1024 bytes, as NVML's other sizes). The
     * document carries no energy counter and no NVLink traffic: those are absent, saying so.
     */
    private static Gpu.Activity activity(NvidiaSmiXmlNode gpu, Optional<NvidiaSmiXmlNode> temperature) {
        Optional<NvidiaSmiXmlNode> util = gpu.child("utilization");
        Optional<NvidiaSmiXmlNode> pci = gpu.child("pci");
        String notInXml = "nvidia-smi -q -x has no such element; NVML gives it on the live node";
        return new Gpu.Activity(
                under(gpu, util, "utilization", u -> u.integer("%", "gpu_util")),
                under(gpu, util, "utilization", u -> u.integer("%", "memory_util")),
                under(gpu, util, "utilization", u -> u.integer("%", "encoder_util")),
                under(gpu, util, "utilization", u -> u.integer("%", "decoder_util")),
                under(gpu, gpu.child("clocks"), "clocks", c -> c.integer("MHz", "mem_clock")),
                under(gpu, temperature, "temperature", t -> t.integer("C", "memory_temp")),
                Reading.absent("energy: " + notInXml),
                under(gpu, pci, "pci", p -> p.number("KB/s", "tx_util").map(kb -> kb * 1024)),
                under(gpu, pci, "pci", p -> p.number("KB/s", "rx_util").map(kb -> kb * 1024)),
                Reading.absent("NVLink traffic: " + notInXml));
    }

    /** pci/pci_bus_id, else the gpu element's id attribute; both are "00000000:17:00.0". */
    private static String pciAddress(NvidiaSmiXmlNode gpu) {
        String busId = gpu.child("pci").map(p -> p.text("pci_bus_id").orElse("")).orElse("");
        if (busId.isEmpty()) busId = gpu.element().getAttribute("id");
        return busId.isBlank() ? "unknown" : PciAddress.normalize(busId);
    }

    private static Reading<Memory> memory(NvidiaSmiXmlNode gpu) {
        Optional<NvidiaSmiXmlNode> fb = gpu.child("fb_memory_usage");
        if (fb.isEmpty()) return Reading.absent("no fb_memory_usage under " + gpu.path());
        Reading<Long> total = fb.get().whole("MiB", "total");
        Reading<Long> used = fb.get().whole("MiB", "used");
        // nvidia-smi's used leaves out the driver's reserved memory (DTD v12 on); older documents have no reserved
        Reading<Long> reserved = fb.get().whole("MiB", "reserved").map(r -> r * MIB);
        Reading<Long> free = fb.get().whole("MiB", "free");
        return both(total, used, (t, u) -> free.optional()
                .map(f -> new Memory(t * MIB, u * MIB, reserved, f * MIB))
                .orElseGet(() -> new Memory(t * MIB, u * MIB, reserved)));
    }

    private static Reading<List<ClockEvent>> clockEvents(NvidiaSmiXmlNode gpu) {
        Optional<NvidiaSmiXmlNode> reasons = gpu.firstChild("clocks_event_reasons", "clocks_throttle_reasons");
        if (reasons.isEmpty()) return Reading.absent("no clocks_event_reasons under " + gpu.path());
        if (!reasons.get().hasElements()) return reasons.get().withoutSections();
        List<ClockEvent> active = new ArrayList<>();
        Set<String> missing = new TreeSet<>(JUDGED_EVENTS);
        for (NvidiaSmiXmlNode r : reasons.get().elements()) {
            String name = r.element().getTagName().replaceFirst("^clocks_(event|throttle)_reason_", "");
            ClockEvent event = CLOCK_EVENTS.get(name);
            if (event == null) continue; // a reason newer than the model: not one NVML's mask reports either
            missing.remove(name);
            Reading<Boolean> on = r.flagValue("Active", "Not Active");
            switch (on) {
                case Reading.Present<Boolean>(Boolean b) -> {
                    if (b) active.add(event);
                }
                case Reading.Absent<Boolean> a -> {
                    return a.map(x -> List.of());
                }
                case Reading.Failed<Boolean> f -> {
                    return f.map(x -> List.of());
                }
            }
        }
        // every DTD seen (v11-v13) lists all of them: one gone is a cut document, not a slowdown that is off
        if (!missing.isEmpty()) return Reading.failed(reasons.get().path(), "no clocks_event_reason_" + String.join(", ", missing));
        return Reading.of(List.copyOf(active));
    }

    private static Reading<PcieLink> pcieLink(NvidiaSmiXmlNode gpu) {
        Optional<NvidiaSmiXmlNode> info = gpu.child("pci").flatMap(p -> p.child("pci_gpu_link_info"));
        if (info.isEmpty()) return Reading.absent("no pci/pci_gpu_link_info under " + gpu.path());
        Optional<NvidiaSmiXmlNode> gen = info.get().child("pcie_gen");
        Optional<NvidiaSmiXmlNode> width = info.get().child("link_widths");
        if (gen.isEmpty() || width.isEmpty()) return Reading.absent("no pcie_gen or link_widths under " + info.get().path());
        Reading<Integer> currentGen = gen.get().integer("", "current_link_gen");
        Reading<Integer> maxGen = gen.get().integer("", "max_link_gen");
        Reading<Integer> currentWidth = width.get().integer("x", "current_link_width");
        Reading<Integer> maxWidth = width.get().integer("x", "max_link_width");
        Reading<int[]> gens = both(currentGen, maxGen, (c, m) -> new int[] {c, m});
        Reading<int[]> widths = both(currentWidth, maxWidth, (c, m) -> new int[] {c, m});
        return both(gens, widths, (g, w) -> new PcieLink(g[0], g[1], w[0], w[1]));
    }

    /**
     * nvidia-smi -q -x has carried no per-link NVLink state in any DTD seen (v11-v13); a document that does hold
     * an nvlinks element with link/state pairs is read, else the field is absent and says where to look.
     */
    private static Reading<List<NvLink>> nvlinks(NvidiaSmiXmlNode gpu) {
        Optional<NvidiaSmiXmlNode> links = gpu.child("nvlinks");
        if (links.isEmpty() || !links.get().hasElements()) {
            return Reading.absent("nvidia-smi -q -x reports no NVLink state (see nvidia-smi nvlink -s)");
        }
        List<NvLink> out = new ArrayList<>();
        for (NvidiaSmiXmlNode l : links.get().children("nvlink")) {
            Reading<Integer> id = l.integer("", "link");
            Reading<Boolean> up = l.flag("Active", "Inactive", "state");
            Reading<NvLink> link = both(id, up, NvLink::new);
            if (!(link instanceof Reading.Present<NvLink>(NvLink v))) return link.map(x -> List.of());
            out.add(v);
        }
        return Reading.of(List.copyOf(out));
    }

    /** A reading from a section that may be missing altogether (old drivers lack gpu_power_readings). */
    private static <T> Reading<T> under(NvidiaSmiXmlNode gpu, Optional<NvidiaSmiXmlNode> section, String name,
                                        Function<NvidiaSmiXmlNode, Reading<T>> read) {
        return section.map(read).orElseGet(() -> Reading.absent("no " + name + " under " + gpu.path()));
    }

    /** Both readings present: combined; else the first that is not, failed before absent. */
    static <A, B, R> Reading<R> both(Reading<A> a, Reading<B> b, BiFunction<A, B, R> f) {
        if (a instanceof Reading.Present<A>(A x) && b instanceof Reading.Present<B>(B y)) return Reading.of(f.apply(x, y));
        if (a instanceof Reading.Failed<A> || !(b instanceof Reading.Failed<B>) && !a.isPresent()) {
            return a.map(x -> null);
        }
        return b.map(x -> null);
    }
}
