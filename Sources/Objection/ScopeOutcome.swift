/// How the work a disposal follows ended: what a request scope's body did, so that a disposal can
/// commit or roll back.
///
/// A request scope disposes its scoped instances with ``succeeded`` when its body returned and
/// with ``failed(_:)`` when it threw. An injector's ``InjectorActor/shutdown(within:)`` disposes its
/// singletons with ``succeeded``: ending the process is not a failure of theirs; a creation that
/// fails disposes what it built with ``failed(_:)``.
///
/// A struct rather than an enum, so that telling more (a cancellation, say) later breaks no
/// `switch`.
///
/// ```swift
/// binder.bind(UnitOfWork.self).to(UnitOfWork.init).inScope(.scoped).onDispose { work, outcome in
///     if let error = outcome.error {
///         logger.debug("rolling back after \(type(of: error))")
///         try await work.rollBack()
///     } else {
///         try await work.commit()
///     }
/// }
/// ```
public struct ScopeOutcome: Sendable {
    /// What the scope's body threw; `nil` when it returned.
    ///
    /// ```swift
    /// if outcome.error is CancellationError { … }
    /// ```
    public let error: (any Error)?

    /// The scope's body returned, or the injector shut down.
    public static let succeeded = ScopeOutcome(error: nil)

    /// The scope's body threw `error`.
    ///
    /// - Parameter error: What it threw.
    /// - Returns: The outcome.
    public static func failed(_ error: any Error) -> ScopeOutcome {
        ScopeOutcome(error: error)
    }

    /// Whether the work ended without an error.
    ///
    /// ```swift
    /// if outcome.isSuccess { try await transaction.commit() } else { try await transaction.rollBack() }
    /// ```
    public var isSuccess: Bool { error == nil }
}
