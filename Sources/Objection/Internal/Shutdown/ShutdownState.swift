/// Where an injector's ``InjectorActor/shutdown()`` is, and what the injector must dispose: one
/// value under one lock (see ``ShutdownStateStore`` for which lock).
struct ShutdownState: Sendable {
    enum Phase: Sendable {
        case running
        /// Disposing. Later callers wait for the outcome, made when the first of them arrives, so
        /// that the usual single shutdown of a request scope allocates nothing for waiters.
        case disposing(SharedOutcome<Void>?)
        case finished
    }

    var phase = Phase.running
    /// The first thing recorded for disposal, held inline: most request scopes dispose one
    /// instance (a unit of work, a transaction), and then record nothing in an array.
    private var first: Disposal?
    /// What was recorded after ``first``, oldest first.
    private var rest: [Disposal] = []
    /// Whether shutdown has taken the disposals, after which nothing more is recorded.
    private(set) var isClosed = false

    /// Records `disposal`; `false` once shutdown has taken the disposals, when the caller must
    /// dispose now.
    mutating func record(_ disposal: consuming Disposal) -> Bool {
        guard !isClosed else { return false }
        if first == nil { first = disposal } else { rest.append(disposal) }
        return true
    }

    /// Whether anything was recorded for disposal and not yet taken.
    var hasDisposals: Bool { first != nil }

    /// Takes the disposals, newest first — the order to dispose them in — and records no more.
    mutating func close() -> Disposals {
        isClosed = true
        defer { rest = [] }
        return Disposals(first: first.take(), rest: rest)
    }
}

/// What an injector must dispose, in the order to dispose them: newest first.
struct Disposals: Sequence, Sendable {
    let first: Disposal?
    let rest: [Disposal]

    struct Iterator: IteratorProtocol {
        var later: ReversedCollection<[Disposal]>.Iterator
        var oldest: Disposal?

        mutating func next() -> Disposal? {
            if let next = later.next() { return next }
            return oldest.take()
        }
    }

    func makeIterator() -> Iterator {
        Iterator(later: rest.reversed().makeIterator(), oldest: first)
    }
}

/// One built instance to dispose, and how.
struct Disposal: Sendable {
    let key: BindingKey
    /// Disposes the instance after work that ended with the given outcome.
    let dispose: @Sendable (ScopeOutcome) async throws -> Void
}
