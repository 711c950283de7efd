package dev.baton.domain.rest;

/** Answers one request; a domain's exception is turned into its status by the front door, as for every route. */
@FunctionalInterface
public interface RouteHandler {
    RestResponse handle(RestRequest request);
}
