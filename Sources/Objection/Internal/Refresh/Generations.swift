/// The generations of one refreshable binding: the current one, the failure of the last refresh,
/// and the refreshes asked for, so that concurrent ones share a rebuild.
///
/// The first generation is the value the binding's singleton cell built (``adoptFirst(_:)``);
/// each successful refresh replaces the current one (``replace(with:)``). A request scope pins
/// the generation current when it first reads the binding (``pinCurrent()``) and releases it when
/// it ends; the replaced generation is disposed after its last user (``Generation``).
final class Generations: Sendable {
    private let state = Lock(State())

    private struct State {
        var current: Generation?
        /// Set by shutdown: no generation becomes current after it.
        var isClosed = false
        /// The type of the last refresh's error, `nil` once one succeeded: health reports it.
        var failure: String?
        /// The rebuild running now, if any, as the outcome that ends with it: what a shutdown
        /// waits for before it disposes the singletons that rebuild may be using.
        var rebuild: SharedOutcome<CellState.Value?>?
        /// Refreshes asked for, numbered; `answered` is the highest one a finished rebuild covers.
        var asked = 0
        var answered = 0
        /// The error of the last finished rebuild, which every refresh it covers gets.
        var lastError: (any Error)?
        /// Every rebuild whose task is still running, the one running now and any given up (its
        /// caller cancelled, or answered at its deadline): each may still be using singletons.
        var works: [ObjectIdentifier: SharedOutcome<CellState.Value?>] = [:]
        /// The refreshes waiting for the rebuild running now, by their number.
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    /// The generation in use now, if the binding was built.
    var current: Generation? { state.withLock { $0.current } }

    /// The error type of the last refresh, when it failed and none succeeded since.
    var failure: String? { state.withLock { $0.failure } }

    /// Makes `first` the first generation, unless there is one; `false` once shutdown ended the
    /// binding, so that the caller disposes it.
    func adoptFirst(_ first: Generation) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            if state.current == nil { state.current = first }
            return true
        }
    }

    /// The current generation with one more user, read and counted under the lock a refresh
    /// retires it under.
    func pinCurrent() -> Generation? {
        state.withLock { state in
            state.current?.acquire()
            return state.current
        }
    }

    /// Makes `next` current; returns the one it replaced when nobody uses it, for the caller to
    /// dispose — or `next` itself once shutdown ended the binding.
    func replace(with next: Generation) -> Generation? {
        state.withLock { state in
            guard !state.isClosed else { return next }
            let old = state.current
            state.current = next
            state.failure = nil
            return old?.retire() == true ? old : nil
        }
    }

    /// Ends the current generation at shutdown; returns it when nobody uses it, for the caller to
    /// dispose.
    func retireAtShutdown() -> Generation? {
        state.withLock { state in
            let old = state.current
            state.current = nil
            state.isClosed = true
            return old?.retire() == true ? old : nil
        }
    }

    /// The ends of the rebuilds in flight: the one running now, if one is, and the tasks of any
    /// given up that have not ended — what a shutdown waits for before it disposes the
    /// singletons they may be using.
    var rebuildsInFlight: [SharedOutcome<CellState.Value?>] {
        state.withLock { state in (state.rebuild.map { [$0] } ?? []) + state.works.values }
    }

    /// Counts a rebuild's task as running until ``endWork(_:)``; returns its end.
    func startWork() -> SharedOutcome<CellState.Value?> {
        let work = SharedOutcome<CellState.Value?>()
        state.withLock { $0.works[ObjectIdentifier(work)] = work }
        return work
    }

    /// Ends a rebuild's task counted by ``startWork()``.
    func endWork(_ work: SharedOutcome<CellState.Value?>) {
        state.withLock { $0.works[ObjectIdentifier(work)] = nil }
        work.finish(.success(nil))
    }

    /// How many refreshes were asked for, answered or not.
    var asked: Int { state.withLock { $0.asked } }

    /// The tickets (the order they were asked in, from 1) of the refreshes waiting for the run in
    /// flight to end: lets a test tell the caller that runs from those that wait.
    var waitingTickets: Set<Int> { state.withLock { Set($0.waiting.keys) } }

    /// The number the next generation gets.
    var nextNumber: Int { state.withLock { ($0.current?.number ?? 0) + 1 } }

    /// An error as health names it: its type, and an ``InjectionError``'s code (never a message,
    /// which may quote a setting).
    private static func name(of error: any Error) -> String {
        (error as? InjectionError).map { "InjectionError.\($0.code)" } ?? "\(type(of: error))"
    }

    /// Runs `rebuild` for this refresh, or waits for the one that covers it: one rebuild at a time,
    /// and a refresh asked while one runs is answered by the next, which starts after it — so the
    /// last request wins and concurrent ones share one rebuild. Throws the rebuild's error; a
    /// caller cancelled while it waits leaves at once with `CancellationError`, and one cancelled
    /// while its run rebuilds leaves with it alone: the others it covered run again.
    func coalescing(_ rebuild: () async throws -> Void) async throws {
        enum Role {
            case answered((any Error)?)
            case wait
            case run(upTo: Int)
        }
        let ticket = state.withLock { state in
            state.asked += 1
            return state.asked
        }
        while true {
            let role = state.withLock { state -> Role in
                if state.answered >= ticket { return .answered(state.lastError) }
                if state.rebuild != nil { return .wait }
                state.rebuild = SharedOutcome()
                return .run(upTo: state.asked)
            }
            switch role {
            case .answered(let error):
                if let error { throw error }
                return
            case .wait:
                // Checked after `answered`: a caller whose refresh was answered gets its answer.
                try Task.checkCancellation()
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        // Cancelled before it waits: the flag is set before the handler runs.
                        let resumeNow = state.withLock { state in
                            guard state.rebuild != nil, !Task.isCancelled else { return true }
                            state.waiting[ticket] = continuation
                            return false
                        }
                        if resumeNow { continuation.resume() }
                    }
                } onCancel: {
                    state.withLock { $0.waiting.removeValue(forKey: ticket) }?.resume()
                }
            case .run(let covered):
                var failure: (any Error)?
                do { try await rebuild() } catch { failure = error }
                // The runner left (its rebuild was cancelled with it): that answers its own
                // refresh only. The refreshes its run covered are not answered with its
                // cancellation: they claim the next run.
                let runnerLeft = failure is CancellationError && Task.isCancelled
                let (waiting, ended) = state.withLock { state in
                    if !runnerLeft {
                        state.answered = covered
                        state.lastError = failure
                    }
                    // A caller that left is not a failed rebuild: health stays as it was.
                    if let failure, !(failure is CancellationError) { state.failure = Self.name(of: failure) }
                    defer {
                        state.waiting = [:]
                        state.rebuild = nil
                    }
                    return (state.waiting, state.rebuild)
                }
                ended?.finish(.success(nil))
                for waiter in waiting.values { waiter.resume() }
                if runnerLeft, let failure { throw failure }
            }
        }
    }
}
