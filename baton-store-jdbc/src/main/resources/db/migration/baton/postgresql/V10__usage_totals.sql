-- Running totals of ai_usage cost per 15-minute slot of UTC time, so a budget check reads at most a month of slots
-- (2,976) whatever the month's number of model calls. One row per user and slot, and one per tenant and slot with
-- user_id '' (no caller has an empty user id). Every time zone in use is offset from UTC by a whole number of 15
-- minutes, so a budget's day or month in any zone is a whole number of slots. Written in the transaction that inserts
-- the ai_usage rows; rows without a tenant are left out (no budget counts them).
CREATE TABLE usage_totals (
    tenant_id TEXT        NOT NULL,
    user_id   TEXT        NOT NULL,
    slot      TIMESTAMPTZ NOT NULL,
    cost_usd  NUMERIC     NOT NULL,
    PRIMARY KEY (tenant_id, user_id, slot)
);

-- The usage recorded so far. The slot comes from the epoch, not date_trunc, which would follow the session's time zone.
INSERT INTO usage_totals (tenant_id, user_id, slot, cost_usd)
SELECT tenant_id, user_id, to_timestamp(floor(extract(epoch FROM created_at) / 900) * 900), SUM(cost_usd)
FROM ai_usage
WHERE tenant_id IS NOT NULL AND user_id <> ''
GROUP BY 1, 2, 3;

INSERT INTO usage_totals (tenant_id, user_id, slot, cost_usd)
SELECT tenant_id, '', slot, SUM(cost_usd)
FROM usage_totals
WHERE user_id <> ''
GROUP BY tenant_id, slot;
