package dev.railyard.check;

import dev.railyard.model.Finding;

import java.util.List;

/** One concern judged on one node. Pure: reads only its input, never the OS, so it is tested on built inventories. */
public interface Check {

    /** The catalog ID, or the common prefix when the check emits several IDs ("rdma.port"). */
    String id();

    /** The IDs or prefixes its findings fall under, when {@link #id()} alone does not cover them all. */
    default List<String> ids() {
        return List.of(id());
    }

    List<Finding> run(CheckInput in);
}
