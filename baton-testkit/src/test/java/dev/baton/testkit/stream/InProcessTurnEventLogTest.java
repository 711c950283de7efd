package dev.baton.testkit.stream;

import dev.baton.runtime.stream.TurnEventLog;
import dev.baton.runtime.stream.TurnEventLogSettings;

/** The turn event log contract on {@code TurnEventLog.inProcess}: one process, so "another instance" is the same log. */
class InProcessTurnEventLogTest extends TurnEventLogContract {

    @Override
    protected TurnEventLog open(TurnEventLogSettings settings) {
        return TurnEventLog.inProcess(settings);
    }

    @Override
    protected TurnEventLog another(TurnEventLog log, TurnEventLogSettings settings) {
        return log;
    }
}
