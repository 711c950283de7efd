package dev.baton.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.client.McpResponseLostException;
import io.modelcontextprotocol.modern.client.McpTimeoutException;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The 2026-07-28 client's failures read the way the 2025 session's do, however deeply the SDK wrapped them. */
class CallFailureTest {

    @Test
    void a_json_rpc_error_of_a_2026_server_is_the_servers_refusal_with_its_message() {
        CallFailure failure = CallFailure.of(new RuntimeException(new McpException(-32602, "Unknown tool: nope")));

        assertThat(failure.kind()).isEqualTo(CallFailure.Kind.SERVER_ERROR);
        assertThat(failure.message()).isEqualTo("Unknown tool: nope");
    }

    @Test
    void a_2026_timeout_is_a_timeout_and_a_lost_response_a_broken_connection() {
        assertThat(CallFailure.of(new McpTimeoutException(
                                McpTimeoutException.Kind.values()[0], Duration.ofSeconds(1), "tools/call"))
                        .kind())
                .isEqualTo(CallFailure.Kind.TIMEOUT);
        assertThat(CallFailure.of(new McpResponseLostException("tools/call", new IOException("reset")))
                        .kind())
                .isEqualTo(CallFailure.Kind.CONNECTION);
    }
}
