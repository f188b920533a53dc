import Objection

/// A scoped unit of work whose disposal fails, as a transaction whose commit fails would.
///
/// ```swift
/// binder.bind(UncommittableWork.self).to { _ in UncommittableWork() }.inScope(.scoped)
/// ```
public struct UncommittableWork: AsyncDisposable {
    /// The error its disposal throws.
    public struct CommitFailed: Error {
        /// Creates the error.
        public init() {}
    }

    /// Creates a unit whose disposal will fail.
    public init() {}

    /// Throws ``CommitFailed``.
    public func dispose() async throws {
        throw CommitFailed()
    }
}
