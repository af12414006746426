package dev.railyard.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one size parser: nccl-tests' -b/-e, iperf3's -l, fio's --size all read 128K as 131072 bytes. */
class ByteSizeConverterTest {

    @Test
    void sizesAreBinaryMultiplesWithAnOptionalByteSuffix() {
        assertThat(ByteSizeConverter.parse("64")).isEqualTo(64);
        assertThat(ByteSizeConverter.parse("128K")).isEqualTo(131072);
        assertThat(ByteSizeConverter.parse("1M")).isEqualTo(1048576);
        assertThat(ByteSizeConverter.parse("2KiB")).isEqualTo(2048);
        assertThat(ByteSizeConverter.parse("2kb")).isEqualTo(2048);
        assertThat(ByteSizeConverter.parse("300G")).isEqualTo(300L << 30);
        assertThat(ByteSizeConverter.parse("1T")).isEqualTo(1L << 40);
    }

    @Test
    void anythingElseIsAConversionErrorThatNamesTheValue() {
        for (String bad : new String[] {"12x", "", "-1", "K", "99999999999T", "1.5G"}) {
            assertThatThrownBy(() -> ByteSizeConverter.parse(bad)).as(bad)
                    .isInstanceOf(CommandLine.TypeConversionException.class)
                    .hasMessageContaining("'" + bad + "' is not a size");
        }
    }
}
