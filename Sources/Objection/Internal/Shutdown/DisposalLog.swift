/// What an injector has built and must dispose, in order of construction.
final class DisposalLog: Sendable {
    private let state = Lock<(entries: [Disposal], isClosed: Bool)>(([], false))

    init() {}

    /// Records `disposal`; `false` once the log is closed, when the caller must dispose now.
    func record(_ disposal: Disposal) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            state.entries.append(disposal)
            return true
        }
    }

    /// Whether ``close()`` has been called: the owner's shutdown has disposed what it recorded.
    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Closes the log and returns its entries, oldest first.
    func close() -> [Disposal] {
        state.withLock { state in
            state.isClosed = true
            defer { state.entries = [] }
            return state.entries
        }
    }
}

/// One built instance to dispose, and how.
struct Disposal: Sendable {
    let key: BindingKey
    /// Disposes the instance after work that ended with the given outcome.
    let dispose: @Sendable (ScopeOutcome) async throws -> Void
}
