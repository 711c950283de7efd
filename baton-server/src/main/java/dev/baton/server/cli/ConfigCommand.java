package dev.baton.server.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.mcp.config.McpSettings;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.config.ConfigFile;
import dev.baton.server.app.ServerSettings;
import dev.baton.server.auth.JwtSecret;
import dev.baton.server.auth.JwtSettings;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code baton config check}: everything {@code serve} checks at start, without starting anything. */
@Command(
        name = "config",
        mixinStandardHelpOptions = true,
        description = "Work with the configuration.",
        subcommands = {ConfigCommand.Check.class})
final class ConfigCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    @Command(
            name = "check",
            mixinStandardHelpOptions = true,
            description = "Check baton.yaml, the agents and the environment as serve would, without starting; print "
                    + "the effective configuration (secrets masked) and where each value comes from.")
    static final class Check implements Callable<Integer> {

        @Option(names = "--config", description = "Path to baton.yaml (default: ./baton.yaml or $BATON_CONFIG).")
        Path config;

        private final PrintStream out = System.out;

        @Override
        public Integer call() {
            // the server's INFO lines (JSON) would bury the report; warnings and errors still show
            Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
            if (System.getenv("BATON_LOG_LEVEL") == null) root.setLevel(Level.WARN);
            Map<String, String> env = System.getenv();
            ConfigFile file = ConfigLoader.read(config, env);
            BatonConfig cfg = ConfigLoader.from(file, env);
            // serve would use (or make) the development secret: check with a stand-in, and touch no file
            BatonConfig checked = cfg;
            if (cfg.jwtSecret() == null && !JwtSettings.jwksConfigured(cfg.section(JwtSettings.SECTION), cfg.env()))
                checked = cfg.withJwtSecret(JwtSecret.generate());
            ServerSettings settings = ServerSettings.read(checked, file);
            checkMcp(cfg, file);
            new EffectiveConfig(file, cfg, settings, settings.checkModels()).print(out);
            out.println();
            out.println(
                    file.root().isMissingNode()
                            ? "No " + file.source() + ": defaults and environment only. OK"
                            : file.source() + ": OK");
            out.flush();
            return ExitCodes.OK;
        }

        /** The {@code mcp} section as {@code serve} reads it, which starts nothing here: a refusal explains itself. */
        private static void checkMcp(BatonConfig cfg, ConfigFile file) {
            try {
                McpSettings.parse(cfg.section("mcp"), cfg.env());
            } catch (IllegalArgumentException e) {
                RuntimeException explained = ConfigLoader.explain(file, e);
                throw explained instanceof ConfigException ? explained : new ConfigException(e.getMessage(), e);
            }
        }
    }
}
