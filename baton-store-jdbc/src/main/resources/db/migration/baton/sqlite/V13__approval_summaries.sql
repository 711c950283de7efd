-- What a held call would do in the user's terms ("Delete the task 'buy milk' (due 2026-12-01)"), as its tool
-- summarised it when the call was held, so every prompt that lists the pending call later says the same thing.
-- NULL when the tool has no summary, and for calls held before this column existed.
ALTER TABLE tool_approvals ADD COLUMN summary TEXT;
