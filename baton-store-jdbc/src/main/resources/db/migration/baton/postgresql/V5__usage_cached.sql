-- Cached input tokens: how many of a call's input_tokens the provider read from its prompt cache (OpenAI's
-- prompt_tokens_details.cached_tokens, Anthropic's cache_read_input_tokens), billed at a lower price.
-- Rows written before this column existed report 0: the count was not kept.
ALTER TABLE ai_usage ADD COLUMN cached_input_tokens BIGINT NOT NULL DEFAULT 0;
