package dev.railyard.collect;

import dev.railyard.model.Reading;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * NCCL's version from the library files as NCCL's packages and {@code make install} lay them out
 * (libnccl.so -> libnccl.so.2 -> libnccl.so.2.X.Y), in a scratch root.
 */
class NcclVersionReaderTest {

    @TempDir
    Path root;

    private Path dir(String d) throws IOException {
        return Files.createDirectories(root.resolve(d));
    }

    @Test
    void theSonameLinkNamesTheVersion() throws IOException {
        Path lib = dir("usr/lib/x86_64-linux-gnu");
        Files.writeString(lib.resolve("libnccl.so.2.21.5"), "ELF");
        Files.createSymbolicLink(lib.resolve("libnccl.so.2"), Path.of("libnccl.so.2.21.5"));
        Files.createSymbolicLink(lib.resolve("libnccl.so"), Path.of("libnccl.so.2"));
        // an older copy later in the loader's order does not count
        Path cuda = dir("usr/local/cuda/lib64");
        Files.writeString(cuda.resolve("libnccl.so.2.18.3"), "ELF");
        Files.createSymbolicLink(cuda.resolve("libnccl.so.2"), Path.of("libnccl.so.2.18.3"));
        assertThat(NcclVersionReader.read(HostRoot.at(root))).isEqualTo(Reading.of("2.21.5"));
    }

    @Test
    void aCopiedLibraryIsNamedByTheOneVersionedFileBesideIt() throws IOException {
        Path lib = dir("usr/lib64");
        Files.writeString(lib.resolve("libnccl.so.2"), "ELF");
        Files.writeString(lib.resolve("libnccl.so.2.23.4"), "ELF");
        assertThat(NcclVersionReader.read(HostRoot.at(root))).isEqualTo(Reading.of("2.23.4"));
        Files.writeString(lib.resolve("libnccl.so.2.19.3"), "ELF");
        assertThat(NcclVersionReader.read(HostRoot.at(root))).isEqualTo(Reading.failed("usr/lib64/libnccl.so.2",
                "not a link, and several versions beside it: 2.19.3, 2.23.4"));
    }

    @Test
    void aLinkToAnUnversionedNameFailsAndNoLibraryIsAbsent() throws IOException {
        assertThat(NcclVersionReader.read(HostRoot.at(root))).isInstanceOf(Reading.Absent.class);
        Path lib = dir("usr/lib");
        Files.writeString(lib.resolve("libnccl-custom.so"), "ELF");
        Files.createSymbolicLink(lib.resolve("libnccl.so.2"), Path.of("libnccl-custom.so"));
        assertThat(NcclVersionReader.read(HostRoot.at(root))).isEqualTo(Reading.failed("usr/lib/libnccl.so.2",
                "links to libnccl-custom.so, a name without NCCL's version"));
    }
}
