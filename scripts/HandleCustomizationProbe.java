import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Shows the one-time cost behind the 1 KiB spikes of `bench nccl` (docs/benchmarks.md, NCCL): a downcall handle held in
 * a field (not a constant) is "customized" by the JDK on its 128th invokeExact, which generates a class on the calling
 * thread. Prints the time of calls 121-135 of getpid() through such a handle.
 * Run: java --enable-native-access=ALL-UNNAMED scripts/HandleCustomizationProbe.java
 */
public class HandleCustomizationProbe {
    private MethodHandle getpid;

    private int call() throws Throwable {
        return (int) getpid.invokeExact();
    }

    public static void main(String[] args) throws Throwable {
        Linker linker = Linker.nativeLinker();
        HandleCustomizationProbe p = new HandleCustomizationProbe();
        p.getpid = linker.downcallHandle(linker.defaultLookup().find("getpid").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT));
        long[] nanos = new long[200];
        for (int i = 0; i < nanos.length; i++) {
            long start = System.nanoTime();
            p.call();
            nanos[i] = System.nanoTime() - start;
        }
        for (int i = 120; i < 135; i++) System.out.printf("call %d: %.1f us%n", i + 1, nanos[i] / 1e3);
    }
}
