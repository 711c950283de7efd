package dev.baton.spring.web;

/**
 * Marks the controllers that serve Baton's HTTP API, so that {@link ErrorResponses} answers their failures (and only
 * theirs: the app's own controllers keep the app's error handling). An app that replaces one of them implements it too.
 */
public interface BatonApiEndpoint {}
