package dev.railyard.cli;

import dev.railyard.model.RailyardException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

@Command(name = "clear",
        mixinStandardHelpOptions = true,
        description = {"Tell a running agent that a fault was dealt with: forget a component's held health (and the Xid "
                + "events seen so far), so the next sample judges it afresh. The node is resumed in Slurm once healthy."},
        footer = {"", "Examples:",
                "  railyard agent clear all --token-file /etc/railyard/agent.token",
                "  railyard agent clear mlx5_0:1 --url http://gpu07:9410 \\",
                "      --token-file ~/.railyard-token"})
final class AgentClearCommand implements Callable<Integer> {

    @Parameters(paramLabel = "COMPONENT", description = "A component as /api/health names it (GPU0 (0000:3b:00.0), mlx5_0:1, ens6), or all.")
    String component;

    @Option(names = "--url", paramLabel = "URL", defaultValue = "http://127.0.0.1:" + AgentCommand.DEFAULT_PORT,
            description = "The agent (default: ${DEFAULT-VALUE}).")
    String url;

    @Option(names = "--token-file", paramLabel = "FILE", required = true, description = "The token file the agent was started with.")
    Path tokenFile;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        String token = AgentToken.read(tokenFile).orElseThrow();
        URI target = URI.create(url.replaceAll("/+$", "") + "/api/clear?component="
                + URLEncoder.encode(component, StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response;
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            response = client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new RailyardException.MissingPrerequisite("no agent answers at " + url + " (" + e.getMessage() + ")",
                    "start it with: railyard agent (or systemctl start railyard-agent)");
        }
        if (response.statusCode() == 404) {
            throw new RailyardException.Usage("the agent " + response.body().strip(),
                    "name a component exactly as listed (quote names with spaces), or all");
        }
        if (response.statusCode() != 200) {
            throw new RailyardException.Usage("the agent refused: " + response.statusCode() + " " + response.body().strip(),
                    "use the token file the agent was started with (--token-file)");
        }
        spec.commandLine().getOut().print(response.body());
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}
