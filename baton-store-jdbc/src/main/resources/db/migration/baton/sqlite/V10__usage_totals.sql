-- Running totals of ai_usage cost per 15-minute slot of UTC time, so a budget check reads at most a month of slots
-- (2,976) whatever the month's number of model calls. One row per user and slot, and one per tenant and slot with
-- user_id '' (no caller has an empty user id). Every time zone in use is offset from UTC by a whole number of 15
-- minutes, so a budget's day or month in any zone is a whole number of slots. Written in the transaction that inserts
-- the ai_usage rows; rows without a tenant are left out (no budget counts them).
-- slot is the slot's start in ai_usage.created_at's format (ISO-8601 UTC text, six fraction digits, so text order is
-- time order); cost_usd is decimal text like ai_usage.cost_usd.
CREATE TABLE usage_totals (
    tenant_id TEXT NOT NULL,
    user_id   TEXT NOT NULL,
    slot      TEXT NOT NULL,
    cost_usd  TEXT NOT NULL,
    PRIMARY KEY (tenant_id, user_id, slot)
) WITHOUT ROWID;

-- The usage recorded so far. created_at starts 'YYYY-MM-DDTHH:MM': the slot keeps the hour and rounds the minutes
-- down to a multiple of 15.
INSERT INTO usage_totals (tenant_id, user_id, slot, cost_usd)
SELECT tenant_id, user_id, slot, SUM(CAST(cost_usd AS REAL))
FROM (SELECT tenant_id, user_id, cost_usd,
             substr(created_at, 1, 14) || printf('%02d', CAST(substr(created_at, 15, 2) AS INTEGER) / 15 * 15)
                 || ':00.000000Z' AS slot
      FROM ai_usage
      WHERE tenant_id IS NOT NULL AND user_id <> '')
GROUP BY tenant_id, user_id, slot;

INSERT INTO usage_totals (tenant_id, user_id, slot, cost_usd)
SELECT tenant_id, '', slot, SUM(CAST(cost_usd AS REAL))
FROM usage_totals
WHERE user_id <> ''
GROUP BY tenant_id, slot;
