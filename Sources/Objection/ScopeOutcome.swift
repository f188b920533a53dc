/// How the work a disposal follows ended: what a request scope's body did, so that a disposal can
/// commit or roll back.
///
/// A request scope disposes its scoped instances with ``succeeded`` when its body returned and
/// with ``failed(_:)`` when it threw. An injector's ``InjectorActor/shutdown()`` disposes its
/// singletons with ``succeeded``: ending the process is not a failure of theirs.
///
/// ```swift
/// binder.bind(UnitOfWork.self).to(UnitOfWork.init).inScope(.scoped).onDispose { work, outcome in
///     switch outcome {
///     case .succeeded: try await work.commit()
///     case .failed: try await work.rollBack()
///     }
/// }
/// ```
public enum ScopeOutcome: Sendable {
    /// The scope's body returned, or the injector shut down.
    case succeeded
    /// The scope's body threw this error.
    case failed(any Error)

    /// Whether the work ended without an error.
    ///
    /// ```swift
    /// if outcome.isSuccess { try await transaction.commit() } else { try await transaction.rollBack() }
    /// ```
    public var isSuccess: Bool {
        if case .succeeded = self { return true }
        return false
    }
}
