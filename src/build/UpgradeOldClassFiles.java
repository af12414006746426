import java.io.IOException;
import java.io.OutputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * A build step (run by Maven in process-classes with the JDK's source launcher, not shipped): rewrites the class
 * files older than Java 6 in the jars of target/lib as version 50 with stack maps, same code.
 *
 * <p>Why: the JDK's AOT cache skips "old" classes (major version below 50: "Skipping picocli/...: Old class has been
 * linked"), and picocli 4.7 is built for Java 5, so its 173 classes were parsed and verified with the old inferencing
 * verifier on every start; picocli's root command took 165-219 ms of inventory's start here and 127 ms on a 1 x H100
 * machine. With stack maps the classes verify with the type-checking verifier and go into the AOT cache. A signed jar
 * is left alone (rewriting would break its signature), as are classes already at 50 or later, so running twice is a
 * no-op.
 */
public final class UpgradeOldClassFiles {

    private static final int JAVA_6 = 50;

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java UpgradeOldClassFiles.java LIB_DIR");
            System.exit(2);
        }
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(Path.of(args[0]), "*.jar")) {
            for (Path jar : jars) {
                int upgraded = upgrade(jar);
                if (upgraded > 0) System.out.println("UpgradeOldClassFiles: " + jar.getFileName() + ": " + upgraded + " classes to version 50");
            }
        }
    }

    /** Rewrites {@code jar} in place when it holds old classes; the number of classes rewritten. */
    static int upgrade(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            boolean signed = zip.stream().anyMatch(e -> e.getName().startsWith("META-INF/") && e.getName().endsWith(".SF"));
            if (signed || zip.stream().noneMatch(e -> isOld(zip, e))) return 0;
        }
        Path tmp = jar.resolveSibling(jar.getFileName() + ".upgrading");
        int upgraded = 0;
        try (URLClassLoader loader = new URLClassLoader(new URL[]{jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
             ZipFile zip = new ZipFile(jar.toFile());
             OutputStream file = Files.newOutputStream(tmp);
             ZipOutputStream out = new ZipOutputStream(file)) {
            // stack maps merge types at branch targets: the jar's own classes are resolved from the jar itself
            ClassFile cf = ClassFile.of(
                    ClassFile.ClassHierarchyResolverOption.of(ClassHierarchyResolver.defaultResolver()
                            .orElse(ClassHierarchyResolver.ofResourceParsing(loader))),
                    ClassFile.StackMapsOption.GENERATE_STACK_MAPS);
            for (ZipEntry e : zip.stream().toList()) {
                byte[] bytes = zip.getInputStream(e).readAllBytes();
                if (isOld(zip, e)) {
                    ClassModel model = cf.parse(bytes);
                    // rebuilding every method body is what makes the library write the stack maps
                    bytes = cf.transformClass(model, ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL)
                            .andThen(ClassTransform.endHandler(b -> b.withVersion(JAVA_6, 0))));
                    upgraded++;
                }
                ZipEntry copy = new ZipEntry(e.getName());
                copy.setTime(e.getTime());
                out.putNextEntry(copy);
                out.write(bytes);
                out.closeEntry();
            }
        } catch (IOException | RuntimeException ex) {
            Files.deleteIfExists(tmp);
            throw ex;
        }
        Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return upgraded;
    }

    private static boolean isOld(ZipFile zip, ZipEntry e) {
        if (!e.getName().endsWith(".class") || e.getName().endsWith("module-info.class")
                || e.getName().startsWith("META-INF/versions/")) return false;
        try (var in = zip.getInputStream(e)) {
            byte[] head = in.readNBytes(8);
            // magic, minor, major (big-endian) as JVMS 4.1 lays them out
            return head.length == 8 && (((head[6] & 0xff) << 8) | (head[7] & 0xff)) < JAVA_6;
        } catch (IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
    }
}
