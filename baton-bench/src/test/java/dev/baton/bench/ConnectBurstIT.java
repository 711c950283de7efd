package dev.baton.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A burst of 2,000 connections opened at once is accepted whole with Baton's default accept queue (1,024): none is
 * reset or refused. With Jetty's old backlog of 50, bursts like this reset connections.
 */
class ConnectBurstIT {

    @Test
    void a_burst_of_2000_connections_is_accepted_with_no_resets() throws Exception {
        try (BenchServer server = BenchServer.start()) {
            ConnectBurst.Result r = ConnectBurst.run(server.port(), 2000);
            System.out.println("ConnectBurstIT: " + r);
            assertThat(r.reset()).isZero();
            assertThat(r.refused()).isZero();
            assertThat(r.timedOut()).isZero();
            assertThat(r.answered()).isEqualTo(2000);
        }
    }
}
