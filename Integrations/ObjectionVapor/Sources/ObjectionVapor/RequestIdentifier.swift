// Re-exported: the request id and the injector are this module's vocabulary too, so that a file
// importing only the integration can use them, `MemberImportVisibility` on or off.
@_exported import Objection

/// The id of one request (``Objection/RequestIdentifier``, one type for every integration):
/// Vapor's `req.id`.
///
/// Vapor sets `req.id` to the client's `X-Request-Id` header when it sends one, else to a new
/// UUID, and already logs it as the `request-id` metadata of `req.logger`. A client's id is kept
/// only when well-formed (``Objection/RequestIdentifier/isWellFormed(_:)``, the rule of every
/// integration); any other is replaced by a new one, in the scope and in `req.logger`'s
/// `request-id` alike, so that it cannot forge log lines. (Vapor's own log line for the route is
/// written before the middleware runs, with the id as sent.)
/// ``ObjectionScopeMiddleware`` binds it in every request scope, so a scoped or transient binding
/// can take it as a dependency: declare it with `suppliedByScope()`.
///
/// ```swift
/// binder.bind(RequestIdentifier.self).suppliedByScope()
/// binder.bind(AuditTrail.self).to(AuditTrail.init)   // init(requestID: RequestIdentifier)
/// ```
public typealias RequestIdentifier = Objection.RequestIdentifier
