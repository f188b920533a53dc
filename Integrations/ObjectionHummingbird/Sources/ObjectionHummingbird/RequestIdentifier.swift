// Re-exported: the request id and the injector are this module's vocabulary too, so that a file
// importing only the integration can use them, `MemberImportVisibility` on or off.
@_exported import Objection

/// The id of one request (``Objection/RequestIdentifier``, one type for every integration).
///
/// ``ObjectionScopeMiddleware`` settles it before the request scope opens: the client's
/// `X-Request-ID` when it is well-formed (1 to 128 letters, digits, `.`, `_`, `-` or `:`), else the
/// id Hummingbird gave the request (its `hb.request.id`), else a new random one. The middleware puts
/// it in the request logger's `request-id` metadata and in the response's `X-Request-ID` header,
/// and leaves it in ``RequestScopeStorage/requestID`` for the handler and the scope's values. An
/// id a middleware of yours set there before it is adopted instead (see
/// ``RequestScopeStorage/requestID``).
///
/// ```swift
/// ObjectionScopeMiddleware(injector) { request, context, values in
///     if let id = context.requestID { values.bind(RequestIdentifier.self, to: id) }
/// }
/// ```
public typealias RequestIdentifier = Objection.RequestIdentifier
