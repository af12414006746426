package dev.railyard.check;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.PcieLink;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.model.XidEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Optional;

import static dev.railyard.check.Inventories.*;
import static org.assertj.core.api.Assertions.assertThat;

class GpuChecksTest {

    private static Gpu base() {
        return gpu(0, "00000000:3B:00.0");
    }

    private static List<Finding> runOn(Check c, Gpu g) {
        return c.run(CheckInput.withoutSpec(withGpus(s1(), List.of(g))));
    }

    @ParameterizedTest
    @CsvSource({"40,PASS", "85,PASS", "86,WARN", "87,FAIL"})
    void temperatureWarnsAbove85AndFailsAtSlowdown(int t, Severity expected) {
        Gpu g = gpuWith(base(), Reading.of(t), base().clockEvents(), base().ecc(), base().remappedRows(), base().pcieLink(), base().nvlinks());
        assertThat(Found.one(runOn(new GpuThermalCheck(), g), "gpu.temperature", "GPU0 (00000000:3B:00.0)").severity()).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"GPU_IDLE,PASS", "SW_POWER_CAP,INFO", "SW_THERMAL_SLOWDOWN,WARN", "HW_SLOWDOWN,FAIL", "HW_POWER_BRAKE_SLOWDOWN,FAIL"})
    void throttleBySeverityOfTheClockEvent(Gpu.ClockEvent event, Severity expected) {
        Gpu g = gpuWith(base(), base().temperatureC(), Reading.of(List.of(event)), base().ecc(), base().remappedRows(),
                base().pcieLink(), base().nvlinks());
        Finding f = Found.one(runOn(new GpuThermalCheck(), g), "gpu.throttle", "GPU0 (00000000:3B:00.0)");
        assertThat(f.severity()).isEqualTo(expected);
        assertThat(f.observed()).isEqualTo(event.name());
    }

    @Test
    void eccUncorrectedFailsAndPendingRemapWarnsWithReset() {
        Gpu g = gpuWith(base(), base().temperatureC(), base().clockEvents(), Reading.of(new Gpu.EccCounts(177, 0, 177, 2)),
                Reading.of(new Gpu.RemappedRows(1, 0, true, false)), base().pcieLink(), base().nvlinks());
        List<Finding> out = runOn(new GpuEccCheck(), g);
        assertThat(Found.one(out, "gpu.ecc.uncorrected", "GPU0 (00000000:3B:00.0)").severity()).isEqualTo(Severity.FAIL);
        Finding remap = Found.one(out, "gpu.ecc.uncorrected", "GPU0 (00000000:3B:00.0) row remap");
        assertThat(remap.severity()).isEqualTo(Severity.WARN);
        assertThat(remap.remediation()).contains("nvidia-smi -r -i 00000000:3B:00.0");
        assertThat(Found.one(runOn(new GpuEccCheck(), base()), "gpu.ecc.uncorrected", "GPU0 (00000000:3B:00.0)").severity()).isEqualTo(Severity.PASS);
    }

    @Test
    void eccWithoutNvmlIsUnknownWithTheReason() {
        Gpu g = gpuWith(base(), base().temperatureC(), base().clockEvents(), Reading.absent("NVML unavailable: libnvidia-ml.so.1 not found"),
                base().remappedRows(), base().pcieLink(), base().nvlinks());
        Finding f = Found.one(runOn(new GpuEccCheck(), g), "gpu.ecc.uncorrected", "GPU0 (00000000:3B:00.0)");
        assertThat(f.severity()).isEqualTo(Severity.UNKNOWN);
        assertThat(f.observed()).contains("libnvidia-ml.so.1 not found");
    }

    @ParameterizedTest
    @CsvSource({"3,3,16,16,PASS", "1,3,16,16,INFO", "3,3,8,16,WARN"})
    void pcieWidthBelowMaxWarnsButIdleGenerationIsInfo(int gen, int maxGen, int w, int maxW, Severity expected) {
        Gpu g = gpuWith(base(), base().temperatureC(), base().clockEvents(), base().ecc(), base().remappedRows(),
                Reading.of(new PcieLink(gen, maxGen, w, maxW)), base().nvlinks());
        Finding f = Found.one(runOn(new GpuPcieLinkCheck(), g), "gpu.pcie.link", "GPU0 (00000000:3B:00.0)");
        assertThat(f.severity()).isEqualTo(expected);
        assertThat(f.observed()).isEqualTo("Gen" + gen + " x" + w);
    }

    @Test
    void nvlinkDownOnOneGpuFailsAgainstItsPeers() {
        List<Gpu.NvLink> all = List.of(new Gpu.NvLink(0, true), new Gpu.NvLink(1, true), new Gpu.NvLink(2, true));
        List<Gpu.NvLink> oneDown = List.of(new Gpu.NvLink(0, true), new Gpu.NvLink(1, false), new Gpu.NvLink(2, true));
        Gpu g0 = gpuWith(base(), base().temperatureC(), base().clockEvents(), base().ecc(), base().remappedRows(), base().pcieLink(), Reading.of(all));
        Gpu g1 = gpu(1, "00000000:D8:00.0");
        g1 = gpuWith(g1, g1.temperatureC(), g1.clockEvents(), g1.ecc(), g1.remappedRows(), g1.pcieLink(), Reading.of(oneDown));
        List<Finding> out = new GpuNvlinkCheck().run(CheckInput.withoutSpec(withGpus(s1(), List.of(g0, g1))));
        assertThat(Found.one(out, "gpu.nvlink", "GPU0 (00000000:3B:00.0)").severity()).isEqualTo(Severity.PASS);
        Finding f = Found.one(out, "gpu.nvlink", "GPU1 (00000000:D8:00.0)");
        assertThat(f.severity()).isEqualTo(Severity.FAIL);
        assertThat(f.observed()).isEqualTo("2 of 3 links active, down: [1]");
        // PCIe cards without NVLink (the V100-PCIE of S1) are not judged at all.
        assertThat(new GpuNvlinkCheck().run(CheckInput.withoutSpec(s1()))).isEmpty();
    }

    @Test
    void nvlinksThatNoGpuCouldReadAreUnknownWithoutAnInventedBar() {
        Reading<List<Gpu.NvLink>> unread = Reading.failed("nvmlDeviceGetNvLinkState", "NVML_ERROR_UNKNOWN");
        Gpu g0 = gpuWith(base(), base().temperatureC(), base().clockEvents(), base().ecc(), base().remappedRows(),
                base().pcieLink(), unread);
        Gpu g1 = gpu(1, "00000000:D8:00.0");
        g1 = gpuWith(g1, g1.temperatureC(), g1.clockEvents(), g1.ecc(), g1.remappedRows(), g1.pcieLink(), unread);
        List<Finding> out = new GpuNvlinkCheck().run(CheckInput.withoutSpec(withGpus(s1(), List.of(g0, g1))));
        for (Finding f : out) {
            assertThat(f.severity()).isEqualTo(Severity.UNKNOWN);
            assertThat(f.expected()).doesNotContain("0 active links")
                    .contains("as many active links as the best-connected GPU (no GPU's links could be read)");
            assertThat(f.observed()).contains("NVML_ERROR_UNKNOWN");
        }
        assertThat(out).hasSize(2);
    }

    @Test
    void countAndDriverAgainstTheSpec() {
        ClusterSpec spec = s1Spec();
        ClusterSpec pinned = new ClusterSpec(spec.cluster(), spec.source(), spec.nodes(),
                Optional.of(new ClusterSpec.Gpus("Tesla V100-PCIE-16GB", 2, Optional.of("550"), Optional.empty())),
                spec.networks(), spec.expect());
        NodeInventory oneGpu = withGpus(s1(), List.of(base()));
        List<Finding> out = new GpuSpecCheck().run(new CheckInput(oneGpu, Optional.of(pinned), "gpuserver1"));
        Finding count = Found.one(out, "gpu.count", "gpuserver1");
        assertThat(count.severity()).isEqualTo(Severity.FAIL);
        assertThat(count.observed()).isEqualTo("1 GPUs");
        assertThat(count.expected()).isEqualTo("2 x Tesla V100-PCIE-16GB");
        Finding driver = Found.one(out, "gpu.driver", "gpuserver1");
        assertThat(driver.severity()).isEqualTo(Severity.FAIL);
        assertThat(driver.observed()).isEqualTo("driver 535.183.01 CUDA 12.2");
        List<Finding> ok = new GpuSpecCheck().run(new CheckInput(s1(), Optional.of(spec), "gpuserver1"));
        assertThat(Found.one(ok, "gpu.count", "gpuserver1").severity()).isEqualTo(Severity.PASS);
        assertThat(Found.one(ok, "gpu.driver", "gpuserver1").severity()).isEqualTo(Severity.INFO);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "NVIDIA H100 80GB HBM3 | NVIDIA H100 80GB HBM3 | true",
            "NVIDIA H100 80GB HBM3 | H100                  | true",
            "NVIDIA H100 80GB HBM3 | nvidia h100 80gb hbm3 | true",
            "Tesla V100-PCIE-16GB  | NVIDIA Tesla V100-PCIE-16GB | true",
            "NVIDIA Tesla V100-PCIE-16GB | Tesla V100-PCIE-16GB | true",
            "NVIDIA H10            | NVIDIA H100 80GB HBM3 | false",
            "NVIDIA                | NVIDIA H100 80GB HBM3 | false",
            "Tesla V100-PCIE-16G   | Tesla V100-PCIE-16GB  | false",
            "Tesla V100-PCIE-32GB  | Tesla V100-PCIE-16GB  | false",
            "NVIDIA H200           | NVIDIA H200 NVL       | false",
            "Tesla P4              | Tesla T4              | false",
            "NVIDIA GB10           | NVIDIA                | false",
    })
    void aGpuIsTheSpecsModelWhenEveryWordOfTheModelIsInItsName(String name, String model, boolean same) {
        assertThat(GpuSpecCheck.sameModel(name, model)).isEqualTo(same);
    }

    @Test
    void xidGroupsByGpuAndCodeWithTheCatalogsSeverityAndAction() {
        List<XidEvent> events = List.of(
                new XidEvent("t1", "0000:3b:00", 13, "Graphics SM Warp Exception", "l1"),
                new XidEvent("t2", "0000:3b:00", 13, "Graphics SM Warp Exception", "l2"),
                new XidEvent("t3", "0000:d8:00", 79, "GPU has fallen off the bus.", "l3"));
        List<Finding> out = new GpuXidCheck().run(CheckInput.withoutSpec(withXids(s1(), Reading.of(events))));
        Finding x13 = Found.one(out, "gpu.xid", "GPU0 (00000000:3B:00.0)");
        assertThat(x13.severity()).isEqualTo(Severity.WARN);
        assertThat(x13.observed()).startsWith("Xid 13 (Graphics Engine Exception) x2, last at t2");
        Finding x79 = Found.one(out, "gpu.xid", "GPU1 (00000000:D8:00.0)");
        assertThat(x79.severity()).isEqualTo(Severity.FAIL);
        assertThat(x79.remediation()).startsWith("scontrol update nodename=gpuserver1 state=drain reason=xid\n")
                .contains("hardware inspection");
        RunnableFixes.assertRunnable(x79);
        RunnableFixes.assertRunnable(x13);
        assertThat(Found.one(new GpuXidCheck().run(CheckInput.withoutSpec(s1())), "gpu.xid", "gpuserver1").severity())
                .isEqualTo(Severity.PASS);
        assertThat(Found.one(new GpuXidCheck().run(CheckInput.withoutSpec(withXids(s1(), Reading.failed("dmesg", "Operation not permitted")))),
                "gpu.xid", "gpuserver1").severity()).isEqualTo(Severity.UNKNOWN);
    }

    @Test
    void xidCatalogCoversTheCodesOperatorsMeet() {
        for (int code : new int[]{13, 31, 43, 45, 48, 61, 62, 63, 64, 68, 69, 74, 79, 92, 94, 95, 119, 120, 140, 154}) {
            assertThat(XidCatalog.lookup(code)).as("Xid %d", code).isPresent();
        }
        assertThat(XidCatalog.lookup(79).orElseThrow().action()).isEqualTo(XidCatalog.Action.HARDWARE_INSPECTION);
        assertThat(XidCatalog.lookup(48).orElseThrow().severity()).isEqualTo(Severity.FAIL);
        assertThat(XidCatalog.judge(154, "GPU recovery action changed from 0x0 (None) to 0x2 (Node Reboot Required)").action())
                .isEqualTo(XidCatalog.Action.REBOOT_SYSTEM);
        assertThat(XidCatalog.judge(9999, "").severity()).isEqualTo(Severity.WARN);
    }

    @Test
    void everyXidFixIsRunnableWithNothingLeftToFillIn() {
        for (int code = 1; code <= 160; code++) {
            for (String message : List.of("", "GPU recovery action changed from 0x0 (None) to 0x2 (Node Reboot Required)",
                    "GPU recovery action changed from 0x0 (None) to 0x4 (Drain and Reset)")) {
                XidCatalog.Entry e = XidCatalog.judge(code, message);
                String fix = e.remediation(XidCatalog.busId("0000:3b:00"), "gpuserver1");
                RunnableFixes.assertRunnable("Xid " + code, fix);
                assertThat(fix).as("Xid %d", code).doesNotContain("{gpu}", "{node}");
            }
        }
        assertThat(XidCatalog.judge(48, "").remediation("0000:3b:00.0", "n1")).contains("nvidia-smi -r -i 0000:3b:00.0");
    }
}
