/// Where an injector's ``InjectorActor/shutdown(within:)`` is, and what the injector must dispose: one
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
    /// For a request scope still open: the scope the task that opened it was running in, if any
    /// (see ``InjectorActor/openedWithin``); forgotten when the scope ends.
    var openedWithin: InjectorActor?
    /// What the injector built and must dispose, oldest first; `nil` once shutdown has taken
    /// them, after which nothing more is recorded.
    private var disposals: [Disposal]? = []
    /// The ends of constructions a start gave up (its deadline, a provider's error, its caller's
    /// cancellation) whose tasks still run: their providers may be using singletons that
    /// shutdown must dispose after them; those that have ended are dropped as the list is read.
    /// Empty, allocating nothing, for every request scope.
    var abandonedWork: [Construction] = []

    /// Records `disposal`; `false` once shutdown has taken the disposals, when the caller must
    /// dispose now.
    mutating func record(_ disposal: Disposal) -> Bool {
        guard disposals != nil else { return false }
        disposals?.append(disposal)
        return true
    }

    /// Whether shutdown has taken the disposals.
    var isClosed: Bool { disposals == nil }

    /// Whether anything was recorded for disposal and not yet taken.
    var hasDisposals: Bool { disposals?.isEmpty == false }

    /// Takes the disposals, oldest first, and records no more.
    mutating func close() -> [Disposal] {
        defer { disposals = nil }
        return disposals ?? []
    }
}
