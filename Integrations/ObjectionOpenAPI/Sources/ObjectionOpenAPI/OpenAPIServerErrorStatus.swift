public import Objection

/// How a request scope ended when its operation returned a `5xx` response instead of throwing:
/// the library's ``Objection/ServerErrorStatus``, the same type under every integration, by the
/// name this package first gave it.
///
/// An operation that answers `503` (a response its OpenAPI document declares) has failed as surely
/// as one that throws, so ``ObjectionOpenAPIMiddleware`` ends the scope with
/// ``Objection/ScopeOutcome/failed(_:)`` and this error, and a unit of work rolls back. The client
/// still gets the operation's response, unchanged.
///
/// ```swift
/// binder.bind(UnitOfWork.self).to(UnitOfWork.init).inScope(.scoped).onDispose { work, outcome in
///     if outcome.isSuccess { try await work.commit() } else { try await work.rollBack() }
/// }
/// // (outcome.error as? ServerErrorStatus)?.status == .serviceUnavailable for a 503
/// ```
public typealias OpenAPIServerErrorStatus = ServerErrorStatus
