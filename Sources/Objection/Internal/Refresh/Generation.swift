/// One built instance of a refreshable binding, and the request scopes using it.
///
/// A generation is current until a refresh replaces it; then it is *retired*, and disposed once
/// — by whichever comes last of the replacement and the end of the last request scope that
/// pinned it (see ``Generations``). Nobody pins a retired generation: pinning reads the current
/// one under the lock that retires it.
final class Generation: Sendable {
    /// The instance, as a cell holds it (``CellValue``).
    let box: any AnyObject & Sendable
    /// 1 for the first instance, then one more per successful refresh.
    let number: Int
    /// How to dispose the instance; `nil` when it needs nothing.
    let disposal: Disposal?
    private let users = Lock(Users())

    private struct Users {
        var count = 0
        var isRetired = false
    }

    init(box: any AnyObject & Sendable, number: Int, disposal: Disposal?) {
        self.box = box
        self.number = number
        self.disposal = disposal
    }

    /// Counts one more request scope using this generation.
    func acquire() {
        users.withLock { $0.count += 1 }
    }

    /// Retires this generation; `true` when no scope uses it, so that the caller disposes it now.
    func retire() -> Bool {
        users.withLock { users in
            users.isRetired = true
            return users.count == 0
        }
    }

    /// Ends one scope's use; `true` when it was retired and this was its last user, so that the
    /// caller disposes it now.
    func release() -> Bool {
        users.withLock { users in
            users.count -= 1
            return users.isRetired && users.count == 0
        }
    }

    /// Disposes the instance (once: ``retire()`` and the last ``release()`` say `true` to one
    /// caller only).
    func dispose(after outcome: ScopeOutcome) async throws {
        try await disposal?.dispose(outcome)
    }
}
