package dev.railyard.render;

import dev.railyard.Jargon;
import dev.railyard.model.ClusterSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every file rendered for every node of the four examples names systems by their hardware, not "seed 000". */
class RenderJargonTest {

    @Test
    void noRenderedFileOfTheExamplesCarriesInternalJargon() {
        List<String> problems = new ArrayList<>();
        int files = 0;
        for (String example : Examples.ALL) {
            for (ClusterSpec.Node node : Examples.spec(example).nodes()) {
                for (RenderedFile f : Examples.render(example, node.name())) {
                    files++;
                    problems.addAll(Jargon.in(example + " " + node.name() + " " + f.path(), f.content()));
                }
            }
        }
        assertThat(files).isGreaterThan(20);
        assertThat(problems).isEmpty();
    }
}
