package dev.baton.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.eval.EvalReport;
import dev.baton.server.http.Json;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

/**
 * Where {@code baton eval --attach EXPERIMENT/ARM} records its run: an arm of an experiment on a running server, through
 * the admin API ({@code POST /v1/admin/experiments/{id}/arms/{arm}/evals}), so the arm's report and its accuracy
 * trigger see the result.
 */
record ArmTarget(String experiment, String arm, ServerClient server) {

    static ArmTarget parse(String attach, String url, String token, Map<String, String> env) {
        int slash = attach.indexOf('/');
        if (slash <= 0 || slash == attach.length() - 1 || attach.indexOf('/', slash + 1) >= 0)
            throw new CliFailure(
                    ExitCodes.USAGE, "--attach takes EXPERIMENT/ARM, e.g. --attach learning-rollout/treatment");
        String bearer = token != null && !token.isBlank() ? token.strip() : env.get("BATON_TOKEN");
        if (bearer == null || bearer.isBlank())
            throw new CliFailure(
                    ExitCodes.UNAUTHORIZED,
                    "--attach needs an admin's token: pass --token or export BATON_TOKEN (./baton token mints one)");
        return new ArmTarget(
                attach.substring(0, slash),
                attach.substring(slash + 1),
                new ServerClient(ServerClient.urlFrom(url, env), bearer.strip()));
    }

    /** Records the run's pass rate on the arm and says so; a refusal is one line with the server's reason. */
    void record(EvalReport report, PrintStream out) {
        JsonNode body = Json.MAPPER
                .createObjectNode()
                .put("suite", report.suite())
                .put("scenarios", report.runCount())
                .put("passed", report.passedRuns());
        JsonNode recorded = server.post(
                "/v1/admin/experiments/" + ServerClient.encode(experiment) + "/arms/" + ServerClient.encode(arm)
                        + "/evals",
                body);
        out.println(String.format(
                Locale.ROOT,
                "recorded on experiment %s, arm %s: pass rate %.1f%% (%s)",
                experiment,
                arm,
                recorded.path("passRate").asDouble() * 100,
                server.url()));
        out.flush();
    }
}
