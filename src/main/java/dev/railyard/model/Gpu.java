package dev.railyard.model;

import java.util.List;

/**
 * One GPU. With NVML every reading is filled from the library; without it the GPU is still listed from PCI
 * sysfs and the NVML-only readings are absent with the reason NVML could not be used.
 */
public record Gpu(
        int index,
        String pciAddress,
        Source source,
        Reading<String> name,
        Reading<String> uuid,
        Reading<Memory> memory,
        Reading<Integer> temperatureC,
        Reading<Integer> slowdownTemperatureC,
        Reading<Double> powerWatts,
        Reading<Double> powerLimitWatts,
        Reading<Integer> smClockMhz,
        Reading<List<ClockEvent>> clockEvents,
        Reading<EccCounts> ecc,
        Reading<RemappedRows> remappedRows,
        Reading<PcieLink> pcieLink,
        Reading<List<NvLink>> nvlinks,
        Reading<Boolean> persistenceMode,
        Reading<Long> pcieReplays,
        Reading<List<NvLinkErrors>> nvlinkErrors,
        Activity activity) {

    /** A capture written before a field existed has no value for it: absent, saying so, never null. */
    public Gpu {
        if (activity == null) activity = Activity.absent("not in this capture (written by an older Railyard)");
    }

    public enum Source { NVML, PCI_SYSFS, NVIDIA_SMI_CAPTURE }

    /** A GPU from a source that has no error counters (PCI sysfs, a saved nvidia-smi -q -x): they are absent. */
    public Gpu(int index, String pciAddress, Source source, Reading<String> name, Reading<String> uuid,
               Reading<Memory> memory, Reading<Integer> temperatureC, Reading<Integer> slowdownTemperatureC,
               Reading<Double> powerWatts, Reading<Double> powerLimitWatts, Reading<Integer> smClockMhz,
               Reading<List<ClockEvent>> clockEvents, Reading<EccCounts> ecc, Reading<RemappedRows> remappedRows,
               Reading<PcieLink> pcieLink, Reading<List<NvLink>> nvlinks, Reading<Boolean> persistenceMode) {
        this(index, pciAddress, source, name, uuid, memory, temperatureC, slowdownTemperatureC, powerWatts,
                powerLimitWatts, smClockMhz, clockEvents, ecc, remappedRows, pcieLink, nvlinks, persistenceMode,
                Reading.absent("PCIe replay counter is read through NVML only (source " + source + ")"),
                Reading.absent("NVLink error counters are read through NVML only (source " + source + ")"),
                Activity.absent("not read from source " + source));
    }

    /** The same GPU with its utilisation, clocks, energy and traffic readings. */
    public Gpu withActivity(Activity a) {
        return new Gpu(index, pciAddress, source, name, uuid, memory, temperatureC, slowdownTemperatureC, powerWatts,
                powerLimitWatts, smClockMhz, clockEvents, ecc, remappedRows, pcieLink, nvlinks, persistenceMode,
                pcieReplays, nvlinkErrors, a);
    }

    /** The same GPU with other NVLink error counters (the agent keeps the last ones it read between re-reads). */
    public Gpu withNvlinkErrors(Reading<List<NvLinkErrors>> errors) {
        return new Gpu(index, pciAddress, source, name, uuid, memory, temperatureC, slowdownTemperatureC, powerWatts,
                powerLimitWatts, smClockMhz, clockEvents, ecc, remappedRows, pcieLink, nvlinks, persistenceMode,
                pcieReplays, errors, activity);
    }

    /** One NVLink's data-link error counters (nvmlNvLinkErrorCounter_t): replays, recoveries, CRC flit and data. */
    public record NvLinkErrors(int link, long replay, long recovery, long crcFlit, long crcData) {}

    /**
     * How findings name the GPU: the index people know from nvidia-smi, and the bus ID that stays with the device
     * when another GPU falls off the bus and the indexes after it shift.
     */
    public String subject() {
        return "GPU" + index + " (" + pciAddress + ")";
    }

    /**
     * Framebuffer memory as nvidia-smi counts it: {@code usedBytes} excludes what the driver reserves, which
     * {@code reservedBytes} holds (nvmlDeviceGetMemoryInfo_v2, or nvidia-smi's fb_memory_usage/reserved). Where
     * only the first nvmlDeviceGetMemoryInfo answers, used includes the reserved memory and reserved is absent.
     * {@code freeBytes} is the source's own (nvidia-smi rounds each of its MiB figures on its own, so total less
     * used less reserved can be 1 MiB off what it printed).
     */
    public record Memory(long totalBytes, long usedBytes, Reading<Long> reservedBytes, long freeBytes) {
        public Memory {
            if (reservedBytes == null) reservedBytes = Reading.absent("not in this capture (written by an older Railyard)");
        }

        /** Free as nvidia-smi counts it when the source gives no free of its own: total less used less reserved. */
        public Memory(long totalBytes, long usedBytes, Reading<Long> reservedBytes) {
            this(totalBytes, usedBytes, reservedBytes, totalBytes - usedBytes - reservedBytes.orElse(0L));
        }

        public Memory(long totalBytes, long usedBytes) {
            this(totalBytes, usedBytes, Reading.absent("the driver's reserved memory is not reported apart"));
        }
    }

    /**
     * What the GPU is doing, each reading on its own: utilisation over the driver's last sample period (GPU busy,
     * memory copy, encoder, decoder, in %), the memory clock and temperature, the energy counter since the driver
     * loaded, PCIe traffic as a rate between two readings, and the NVLink data counter summed over links.
     */
    public record Activity(
            Reading<Integer> gpuUtilPercent,
            Reading<Integer> memoryCopyUtilPercent,
            Reading<Integer> encoderUtilPercent,
            Reading<Integer> decoderUtilPercent,
            Reading<Integer> memoryClockMhz,
            Reading<Integer> memoryTemperatureC,
            Reading<Long> energyMillijoules,
            Reading<Double> pcieTxBytesPerSecond,
            Reading<Double> pcieRxBytesPerSecond,
            Reading<Long> nvlinkDataKib,
            Reading<Profile> profile) {

        /** Activity from a source without GPM (a saved nvidia-smi -q -x): the profile is absent, saying why. */
        public Activity(Reading<Integer> gpuUtilPercent, Reading<Integer> memoryCopyUtilPercent,
                        Reading<Integer> encoderUtilPercent, Reading<Integer> decoderUtilPercent,
                        Reading<Integer> memoryClockMhz, Reading<Integer> memoryTemperatureC,
                        Reading<Long> energyMillijoules, Reading<Double> pcieTxBytesPerSecond,
                        Reading<Double> pcieRxBytesPerSecond, Reading<Long> nvlinkDataKib) {
            this(gpuUtilPercent, memoryCopyUtilPercent, encoderUtilPercent, decoderUtilPercent, memoryClockMhz,
                    memoryTemperatureC, energyMillijoules, pcieTxBytesPerSecond, pcieRxBytesPerSecond, nvlinkDataKib,
                    Reading.absent("GPM ratios are read through NVML only"));
        }

        public Activity {
            if (profile == null) profile = Reading.absent("not in this capture (written by an older Railyard)");
        }

        public static Activity absent(String why) {
            return new Activity(Reading.absent(why), Reading.absent(why), Reading.absent(why), Reading.absent(why),
                    Reading.absent(why), Reading.absent(why), Reading.absent(why), Reading.absent(why),
                    Reading.absent(why), Reading.absent(why), Reading.absent(why));
        }
    }

    /**
     * NVML GPM's ratios (0 to 1) over the time between two samples, as DCGM's profiling fields give them: graphics
     * engine, SMs with a warp, SM occupancy, tensor pipes, DRAM bandwidth, FP64/FP32/FP16 pipes. Each metric is a
     * reading of its own: a GPU may answer some and not others.
     */
    public record Profile(Reading<Double> graphicsActive, Reading<Double> smActive, Reading<Double> smOccupancy,
                          Reading<Double> tensorActive, Reading<Double> dramActive, Reading<Double> fp64Active,
                          Reading<Double> fp32Active, Reading<Double> fp16Active) {}

    /** ECC error counts: volatile since the driver loaded, aggregate over the GPU's life. */
    public record EccCounts(long volatileCorrected, long volatileUncorrected,
                            long aggregateCorrected, long aggregateUncorrected) {}

    /** Row remapping (A100 and later): a failure or a pending remap needs a GPU reset or replacement. */
    public record RemappedRows(int correctable, int uncorrectable, boolean pending, boolean failure) {}

    public record NvLink(int link, boolean active) {}

    /** NVML clock-event (formerly throttle) reasons, with their bit in nvmlDeviceGetCurrentClocksEventReasons. */
    public enum ClockEvent {
        GPU_IDLE(0x1L),
        APPLICATIONS_CLOCKS_SETTING(0x2L),
        SW_POWER_CAP(0x4L),
        HW_SLOWDOWN(0x8L),
        SYNC_BOOST(0x10L),
        SW_THERMAL_SLOWDOWN(0x20L),
        HW_THERMAL_SLOWDOWN(0x40L),
        HW_POWER_BRAKE_SLOWDOWN(0x80L),
        DISPLAY_CLOCK_SETTING(0x100L);

        public final long bit;

        ClockEvent(long bit) {
            this.bit = bit;
        }

        public static List<ClockEvent> fromMask(long mask) {
            return java.util.Arrays.stream(values()).filter(e -> (mask & e.bit) != 0).toList();
        }
    }
}
