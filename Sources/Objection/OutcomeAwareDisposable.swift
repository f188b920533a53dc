/// A value whose disposal depends on how the work that used it ended: a unit of work that commits
/// when its request succeeded and rolls back when it failed.
///
/// The injector calls ``dispose(after:)`` instead of ``AsyncDisposable/dispose()``. The plain
/// `dispose()` stays available to code that knows only ``AsyncDisposable``, and means
/// `dispose(after: .succeeded)`.
///
/// ```swift
/// final class UnitOfWork: OutcomeAwareDisposable {
///     func dispose(after outcome: ScopeOutcome) async throws {
///         if outcome.isSuccess { try await commit() } else { try await rollBack() }
///     }
/// }
/// ```
public protocol OutcomeAwareDisposable: AsyncDisposable {
    /// Releases the value's resources once the work that used it has ended with `outcome`.
    /// Called at most once, by the injector that built the value.
    ///
    /// - Parameter outcome: How the request scope's body ended; ``ScopeOutcome/succeeded`` at an
    ///   injector's shutdown.
    /// - Throws: Any error; it is reported with the others of the same shutdown, and does not stop
    ///   the remaining disposals.
    func dispose(after outcome: ScopeOutcome) async throws
}

extension OutcomeAwareDisposable {
    /// Disposes as after work that succeeded.
    ///
    /// ```swift
    /// try await unitOfWork.dispose()   // same as dispose(after: .succeeded)
    /// ```
    public func dispose() async throws {
        try await dispose(after: .succeeded)
    }
}
