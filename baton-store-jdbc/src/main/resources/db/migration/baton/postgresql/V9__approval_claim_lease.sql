-- A decision's claim of a paused turn has a lease. The decision that leaves nothing pending claims the turn
-- (status 'resumed', a claim_id) until claimed_until; the instance going on with it clears claimed_until when the turn
-- ended. A claim whose lease ran out belongs to an instance that died: a retried decision on any instance takes it
-- over under a new claim_id. run_started_at marks an approved call whose run began, so a takeover never runs it twice:
-- a call with a tool_calls row ran (its outcome is reused); one that started and left no row is not run again.
ALTER TABLE paused_turns ADD COLUMN claim_id TEXT;
ALTER TABLE paused_turns ADD COLUMN claimed_until TIMESTAMPTZ;
ALTER TABLE tool_approvals ADD COLUMN run_started_at TIMESTAMPTZ;
CREATE INDEX paused_turns_claims ON paused_turns (status, claimed_until);
