-- Two indexes of ai_usage that no query reads any more: budget checks sum usage_totals' slots (never ai_usage), and
-- the usage report scans a tenant's period through ai_usage_tenant_created. Each model call's row paid for both.
-- An instance of the previous release reads nothing through them either, so a rolling upgrade loses nothing.
DROP INDEX IF EXISTS ai_usage_user_created;
DROP INDEX IF EXISTS ai_usage_created;
