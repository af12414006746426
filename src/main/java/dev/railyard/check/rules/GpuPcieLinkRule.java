package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.PcieLink;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.Optional;

/**
 * gpu.pcie.link: a GPU's trained PCIe link against its maximum, and the agent's replay counter rate. Fewer lanes
 * than the maximum is a WARN (a riser, slot or seating problem); a lower generation only INFO, since idle GPUs drop
 * to Gen1 to save power and only a low generation under load means anything. NVML's link, a pasted nvidia-smi -q
 * and the agent's replay rate are judged here alike.
 */
public final class GpuPcieLinkRule implements Rule {

    public static final CheckId ID = CheckId.GPU_PCIE_LINK;
    /** The agent's default: replays rising by this many within the hour. */
    public static final long REPLAYS_PER_HOUR = 100;

    GpuPcieLinkRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "Gpu PCIe link width and generation against their maximum (NVML; diagnose: nvidia-smi -q's PCIe "
                + "Generation and Link Width); the agent: the replay counter's rise within the hour";
    }

    @Override
    public String thresholds() {
        return "the device's maximum; --pcie-replays-per-hour (default " + REPLAYS_PER_HOUR + ")";
    }

    @Override
    public String severities() {
        return "narrower: WARN; lower generation: INFO (idle GPUs step down); unread: UNKNOWN; the agent: replays "
                + "rising by the limit: WARN";
    }

    @Override
    public String fix() {
        return "reseat the GPU or its riser and read LnkSta; a lower generation: look again under load; replays: "
                + "the GPU's PCIe errors, then reseat it or move it to another slot";
    }

    /** The link of the GPU at {@code address} (empty where a paste does not say which GPU). */
    public static Verdict link(Reading<PcieLink> r, Optional<String> address) {
        if (!(r instanceof Reading.Present<PcieLink>(PcieLink l))) {
            return new Verdict(ID, Severity.UNKNOWN, r.describe(), "max generation and width", "");
        }
        String observed = "Gen" + l.currentGen() + " x" + l.currentWidth();
        String expected = "Gen" + l.maxGen() + " x" + l.maxWidth();
        if (l.currentWidth() < l.maxWidth()) {
            return new Verdict(ID, Severity.WARN, observed, expected, Fix.lines(Fix.note("reseat the GPU or riser and "
                    + "check the slot's wiring"), "lspci -vv " + address.map(a -> "-s " + ShellWord.of(a))
                    .orElse("-d 10de:") + " | grep -E 'LnkCap|LnkSta'"));
        }
        Verdict gen = generation(l.currentGen(), l.maxGen());
        return new Verdict(ID, gen.severity(), observed, expected, gen.fix());
    }

    /** A paste that shows the generation but not the width: the generation alone. */
    public static Verdict generation(int currentGen, int maxGen) {
        String observed = "Gen" + currentGen, expected = "Gen" + maxGen;
        if (currentGen >= maxGen) return new Verdict(ID, Severity.PASS, observed, expected, "");
        return new Verdict(ID, Severity.INFO, observed, expected, Fix.lines(Fix.note("idle GPUs downtrain to save "
                + "power; look again under load before acting"), "railyard bench gpu"));
    }

    /**
     * The agent's replay counter of the GPU at {@code address} ({@code index} as nvidia-smi numbers it): {@code hour}
     * replays within the hour, {@code total} since the driver loaded.
     */
    public static Verdict replays(long hour, long total, long warnPerHour, String address, int index) {
        String expected = "PCIe replays rising < " + warnPerHour + " per hour";
        String observed = hour + " PCIe replays in the last hour (" + total + " since the driver loaded)";
        if (hour < warnPerHour) return new Verdict(ID, Severity.PASS, observed, expected, "");
        String gpu = ShellWord.of(address);
        return new Verdict(ID, Severity.WARN, observed, expected, Fix.lines(
                "nvidia-smi -q -d PCIE -i " + gpu,
                "lspci -vvv -s " + gpu + " | grep -E 'LnkSta:|CESta:|UESta:'",
                "dmesg | grep -i " + gpu,
                Fix.note("replays are retransmissions after PCIe link errors: when GPU" + index
                        + " is idle, reseat it and its riser or cable, or move it to another slot")));
    }
}
