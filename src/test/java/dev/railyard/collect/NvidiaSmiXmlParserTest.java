package dev.railyard.collect;

import dev.railyard.bench.RealSamples;
import dev.railyard.model.Gpu;
import dev.railyard.model.Gpu.ClockEvent;
import dev.railyard.model.Gpu.EccCounts;
import dev.railyard.model.Gpu.Memory;
import dev.railyard.model.Gpu.RemappedRows;
import dev.railyard.model.GpuInventory.NvmlSystem;
import dev.railyard.model.PcieLink;
import dev.railyard.model.Reading;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every real nvidia-smi -q -x sample in test resources, with the values each file states. */
class NvidiaSmiXmlParserTest {

    private static final long MIB = 1024L * 1024L;
    private static final String FILE = "railyard/nvidia-smi-q.xml";

    private static NvidiaSmiXml parse(String sample) throws NvidiaSmiXmlException {
        return new NvidiaSmiXmlParser(FILE).parse(RealSamples.body("nvidia-smi/" + sample));
    }

    private static Gpu only(NvidiaSmiXml xml) {
        assertThat(xml.gpus()).hasSize(1);
        return xml.gpus().getFirst();
    }

    @Test
    void a100V12ReadsTheGpuNotItsMigDevices() throws Exception {
        NvidiaSmiXml xml = parse("telegraf-nvidia-smi-q-x-a100-sxm4-80gb-v12.xml.txt");
        assertThat(xml.system()).isEqualTo(Reading.of(new NvmlSystem("535.54.03", "12.2", "")));
        Gpu g = only(xml); // attached_gpus says 4, the file holds one <gpu>
        assertThat(g.index()).isZero();
        assertThat(g.pciAddress()).isEqualTo("0000:01:00.0");
        assertThat(g.source()).isEqualTo(Gpu.Source.NVIDIA_SMI_CAPTURE);
        assertThat(g.name()).isEqualTo(Reading.of("NVIDIA A100-SXM4-80GB"));
        assertThat(g.uuid()).isEqualTo(Reading.of("GPU-513536b6-7d19-9063-b049-1e69664bb298"));
        // the four MIG devices each say 19968 MiB total / 12 MiB used; the GPU's own section says 81920 / 50
        assertThat(g.memory()).isEqualTo(Reading.of(new Memory(81920 * MIB, 50 * MIB, Reading.of(869 * MIB), 80999 * MIB)));
        assertThat(g.temperatureC()).isEqualTo(Reading.of(27));
        assertThat(g.slowdownTemperatureC()).isEqualTo(Reading.of(89));
        assertThat(g.powerWatts()).isEqualTo(Reading.of(67.03));
        assertThat(g.powerLimitWatts()).isEqualTo(Reading.of(500.0));
        assertThat(g.smClockMhz()).isEqualTo(Reading.of(1275));
        assertThat(g.clockEvents()).isEqualTo(Reading.of(List.of()));
        assertThat(g.ecc()).isEqualTo(Reading.of(new EccCounts(0, 0, 0, 0)));
        assertThat(g.remappedRows()).isEqualTo(Reading.absent(FILE + ":/nvidia_smi_log/gpu[1]/remapped_rows: N/A"));
        assertThat(g.pcieLink()).isEqualTo(Reading.of(new PcieLink(4, 4, 16, 16)));
        assertThat(g.persistenceMode()).isEqualTo(Reading.of(false));
        assertThat(g.nvlinks()).isInstanceOf(Reading.Absent.class);
    }

    @Test
    void teslaT4V11ReadsPowerReadingsAndThrottleReasons() throws Exception {
        NvidiaSmiXml xml = parse("telegraf-nvidia-smi-q-x-tesla-t4-v11.xml.txt");
        assertThat(xml.system()).isEqualTo(Reading.of(new NvmlSystem("515.105.01", "11.7", "")));
        Gpu g = only(xml);
        assertThat(g.pciAddress()).isEqualTo("0000:00:1e.0");
        assertThat(g.name()).isEqualTo(Reading.of("Tesla T4"));
        assertThat(g.uuid()).isEqualTo(Reading.of("GPU-d37e67a5-91dd-3774-a5cb-99096249601a"));
        assertThat(g.memory()).isEqualTo(Reading.of(new Memory(15360 * MIB, 1032 * MIB, Reading.of(388 * MIB), 13939 * MIB)));
        assertThat(g.temperatureC()).isEqualTo(Reading.of(40));
        assertThat(g.slowdownTemperatureC()).isEqualTo(Reading.of(93));
        assertThat(g.powerWatts()).isEqualTo(Reading.of(26.78));
        assertThat(g.powerLimitWatts()).isEqualTo(Reading.of(70.0));
        assertThat(g.smClockMhz()).isEqualTo(Reading.of(585));
        assertThat(g.clockEvents()).isEqualTo(Reading.of(List.of()));
        assertThat(g.ecc()).isEqualTo(Reading.of(new EccCounts(0, 0, 0, 0)));
        assertThat(g.pcieLink()).isEqualTo(Reading.of(new PcieLink(3, 3, 8, 16)));
        assertThat(g.pcieLink().orElse(null).degraded()).isTrue();
    }

    @Test
    void a10gV11ReadsRemappedRowsAndAnIdleClockEvent() throws Exception {
        Gpu g = only(parse("telegraf-nvidia-smi-q-x-a10g-v11.xml.txt"));
        assertThat(g.pciAddress()).isEqualTo("0000:00:1e.0");
        assertThat(g.name()).isEqualTo(Reading.of("NVIDIA A10G"));
        assertThat(g.uuid()).isEqualTo(Reading.of("GPU-9a9a6c50-2a47-2f51-a902-b82c3b127e94"));
        assertThat(g.memory()).isEqualTo(Reading.of(new Memory(23028 * MIB, 22 * MIB, Reading.of(435 * MIB), 22569 * MIB)));
        assertThat(g.temperatureC()).isEqualTo(Reading.of(17));
        assertThat(g.slowdownTemperatureC()).isEqualTo(Reading.of(95));
        assertThat(g.powerWatts()).isEqualTo(Reading.of(25.58));
        assertThat(g.powerLimitWatts()).isEqualTo(Reading.of(300.0));
        assertThat(g.smClockMhz()).isEqualTo(Reading.of(210));
        assertThat(g.clockEvents()).isEqualTo(Reading.of(List.of(ClockEvent.GPU_IDLE)));
        assertThat(g.remappedRows()).isEqualTo(Reading.of(new RemappedRows(0, 0, false, false)));
        assertThat(g.pcieLink()).isEqualTo(Reading.of(new PcieLink(1, 4, 8, 16)));
    }

    @Test
    void migA100WithVolatileEccNotAvailable() throws Exception {
        NvidiaSmiXml xml = parse("netdata-nvidia-smi-q-x-a100-sxm4-40gb-MIG.xml.txt");
        assertThat(xml.system()).isEqualTo(Reading.of(new NvmlSystem("510.47.03", "11.6", "")));
        Gpu g = only(xml);
        assertThat(g.pciAddress()).isEqualTo("0000:00:04.0");
        assertThat(g.name()).isEqualTo(Reading.of("NVIDIA A100-SXM4-40GB"));
        assertThat(g.uuid()).isEqualTo(Reading.of("GPU-27b94a00-ed54-5c24-b1fd-1054085de32a"));
        assertThat(g.memory()).isEqualTo(Reading.of(new Memory(40960 * MIB, 38 * MIB, Reading.of(605 * MIB), 40315 * MIB)));
        assertThat(g.temperatureC()).isEqualTo(Reading.of(36));
        assertThat(g.slowdownTemperatureC()).isEqualTo(Reading.of(89));
        assertThat(g.powerWatts()).isEqualTo(Reading.of(66.92));
        assertThat(g.powerLimitWatts()).isEqualTo(Reading.of(400.0));
        assertThat(g.smClockMhz()).isEqualTo(Reading.of(1410));
        assertThat(g.ecc()).isEqualTo(Reading.absent(
                FILE + ":/nvidia_smi_log/gpu[1]/ecc_errors/volatile/sram_correctable: N/A"));
        assertThat(g.remappedRows().describe()).endsWith("remapped_rows: N/A)");
        assertThat(g.pcieLink()).isEqualTo(Reading.of(new PcieLink(4, 4, 16, 16)));
    }

    @Test
    void rtx4000V13ReadsInstantPowerAndHasNoSlowdownThreshold() throws Exception {
        NvidiaSmiXml xml = parse("telegraf-nvidia-smi-q-x-rtx4000-sff-ada-v13.xml.txt");
        assertThat(xml.system()).isEqualTo(Reading.of(new NvmlSystem("595.84", "13.2", "")));
        Gpu g = only(xml);
        assertThat(g.pciAddress()).isEqualTo("0000:06:00.0");
        assertThat(g.name()).isEqualTo(Reading.of("NVIDIA RTX 4000 SFF Ada Generation"));
        assertThat(g.uuid()).isEqualTo(Reading.of("GPU-37037c3f-65c8-ec4d-24a9-420204ad8026"));
        assertThat(g.memory()).isEqualTo(Reading.of(new Memory(20475 * MIB, 3534 * MIB, Reading.of(460 * MIB), 16482 * MIB)));
        assertThat(g.temperatureC()).isEqualTo(Reading.of(38));
        // v13 writes thresholds relative to T.Limit (gpu_temp_slow_tlimit_threshold -2 C), not absolute
        assertThat(g.slowdownTemperatureC()).isEqualTo(Reading.absent(
                "no gpu_temp_slow_threshold under " + FILE + ":/nvidia_smi_log/gpu[1]/temperature"));
        assertThat(g.powerWatts()).isEqualTo(Reading.of(8.44));
        assertThat(g.powerLimitWatts()).isEqualTo(Reading.of(70.0));
        assertThat(g.smClockMhz()).isEqualTo(Reading.of(210));
        assertThat(g.clockEvents()).isEqualTo(Reading.of(List.of(ClockEvent.GPU_IDLE)));
        assertThat(g.ecc()).isInstanceOfSatisfying(Reading.Absent.class,
                a -> assertThat(a.reason()).endsWith("ecc_errors/volatile/sram_correctable: N/A"));
        assertThat(g.remappedRows()).isEqualTo(Reading.of(new RemappedRows(0, 0, false, false)));
        assertThat(g.pcieLink()).isEqualTo(Reading.of(new PcieLink(1, 4, 16, 16)));
        assertThat(g.persistenceMode()).isEqualTo(Reading.of(true));
    }

    @Test
    void aMalformedNumberFailsThatFieldWithItsPath() throws Exception {
        String xml = RealSamples.body("nvidia-smi/telegraf-nvidia-smi-q-x-tesla-t4-v11.xml.txt")
                .replace("<gpu_temp>40 C</gpu_temp>", "<gpu_temp>4O C</gpu_temp>")
                .replace("<used>1032 MiB</used>", "<used>[Not Supported]</used>")
                .replace("<sm_clock>585 MHz</sm_clock>", "<sm_clock>585 GHz</sm_clock>")
                .replace("<dram_uncorrectable>0</dram_uncorrectable>\n            </volatile>",
                        "<dram_uncorrectable>1.5</dram_uncorrectable>\n            </volatile>");
        Gpu g = only(new NvidiaSmiXmlParser(FILE).parse(xml));
        String gpu = FILE + ":/nvidia_smi_log/gpu[1]";
        assertThat(g.temperatureC()).isEqualTo(Reading.failed(gpu + "/temperature/gpu_temp", "not a number in C: \"4O C\""));
        assertThat(g.memory()).isEqualTo(Reading.absent(gpu + "/fb_memory_usage/used: [Not Supported]"));
        assertThat(g.smClockMhz()).isEqualTo(Reading.failed(gpu + "/clocks/sm_clock", "not a number in MHz: \"585 GHz\""));
        assertThat(g.ecc()).isEqualTo(Reading.failed(gpu + "/ecc_errors/volatile/dram_uncorrectable",
                "not a whole number: \"1.5\""));
        assertThat(g.slowdownTemperatureC()).as("its neighbours still read").isEqualTo(Reading.of(93));
    }

    @Test
    void preV11SingleAndDoubleBitTotalsAreRead() throws Exception {
        String ecc = "<volatile><single_bit><device_memory>3</device_memory><total>5</total></single_bit>"
                + "<double_bit><device_memory>1</device_memory><total>1</total></double_bit></volatile>"
                + "<aggregate><single_bit><total>12</total></single_bit><double_bit><total>2</total></double_bit></aggregate>";
        String xml = RealSamples.body("nvidia-smi/telegraf-nvidia-smi-q-x-tesla-t4-v11.xml.txt")
                .replaceFirst("(?s)<ecc_errors>.*?</ecc_errors>", "<ecc_errors>" + ecc + "</ecc_errors>");
        assertThat(only(new NvidiaSmiXmlParser(FILE).parse(xml)).ecc()).isEqualTo(Reading.of(new EccCounts(5, 1, 12, 2)));
    }

    @Test
    void theDtdIsNeverFetched() throws Exception {
        // A DOCTYPE pointing at a URL that cannot be reached here: loading it would fail or hang the parse.
        String xml = RealSamples.body("nvidia-smi/telegraf-nvidia-smi-q-x-tesla-t4-v11.xml.txt")
                .replace("SYSTEM \"nvsmi_device_v11.dtd\"", "SYSTEM \"http://192.0.2.1/nvsmi_device_v11.dtd\"");
        assertThat(only(new NvidiaSmiXmlParser(FILE).parse(xml)).name()).isEqualTo(Reading.of("Tesla T4"));
    }

    @Test
    void aTruncatedDocumentIsATypedErrorWithItsLine() {
        String body = RealSamples.body("nvidia-smi/telegraf-nvidia-smi-q-x-a10g-v11.xml.txt");
        String cut = body.substring(0, body.indexOf("<temperature>"));
        assertThatThrownBy(() -> new NvidiaSmiXmlParser(FILE).parse(cut))
                .isInstanceOf(NvidiaSmiXmlException.class)
                .hasMessageStartingWith("line " + cut.lines().count() + ", column ");
        assertThatThrownBy(() -> new NvidiaSmiXmlParser(FILE).parse("<html><body>no</body></html>"))
                .isInstanceOf(NvidiaSmiXmlException.class)
                .hasMessage("root element is <html>, not <nvidia_smi_log>");
    }
}
