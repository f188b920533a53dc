import Synchronization

/// A request scope held open past the call that opened it, until ``end(_:)``: for a response
/// that is written after its handler has returned — a streamed HTTP body, a gRPC response stream —
/// whose writing still reads the request's scoped values.
///
/// It is what ``InjectorActor/withScope(values:_:)`` does, in two calls: opening counts the scope
/// for the injector's drain (``InjectorActor/shutdown(within:)`` waits for it, up to its
/// deadline) and tells the observer; ``end(_:)`` disposes the scoped instances with the outcome
/// given, tells the observer, and stops counting it. Run the work inside
/// ``InjectorActor/withCurrent(_:isolation:operation:)`` with ``injector`` so that
/// ``InjectorActor/current`` finds it, as `withScope` does.
///
/// Ending it is the opener's duty: the first call of ``end(_:)`` ends it, later ones do nothing.
/// One released without being ended (a response dropped before its body was written) is ended then,
/// in a task of its own, so that its instances are disposed and the drain does not wait for it to
/// its deadline: with a failed outcome (a `CancellationError`: the work was given up), unless
/// ``endsWhenReleased(with:log:)`` said otherwise (a response that succeeded but whose body the server
/// never writes, the answer to a `HEAD`).
///
/// ```swift
/// let open = try await injector.openScope { $0.bind(RequestID.self, to: id) }
/// let stream = try await InjectorActor.withCurrent(open.injector) { try await handler.respond() }
/// return stream.onTermination { outcome in try await open.end(outcome) }
/// ```
public final class OpenScope: Sendable {
    /// The scope: resolve the request's values and scoped instances from it.
    public let injector: InjectorActor
    /// Whether it has been ended, or is being ended (set once, by the first ``end(_:)``).
    private let ended = Atomic<Bool>(false)
    /// The outcome the scope ends with if this handle is released unended — `nil` for a
    /// `CancellationError`, made only then (boxing an error allocates, on every request) — and
    /// who hears of a disposal that fails then.
    private let ifReleased = Mutex<(outcome: ScopeOutcome?, log: (@Sendable (ResponseDisposalFailure) -> Void)?)>(
        (nil, nil))

    init(injector: InjectorActor) {
        self.injector = injector
    }

    /// Whether ``end(_:)`` has been called.
    ///
    /// ```swift
    /// if !open.isEnded { try await open.end(.succeeded) }
    /// ```
    public var isEnded: Bool { ended.load(ordering: .acquiring) }

    /// The outcome the scope ends with if this handle is released without ``end(_:)`` having been
    /// called: a failure (a `CancellationError`) unless this says otherwise; and what hears of a
    /// disposal that fails then, in the task that ends it (a server's log: nobody waits for it).
    ///
    /// ```swift
    /// // The handler succeeded; a body the server never writes (a HEAD's) is no failure.
    /// open.endsWhenReleased(with: .succeeded) { failure in
    ///     logger.error("\(failure.message)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - outcome: How the work ended, should nothing end the scope.
    ///   - log: Called with a disposal's failure when the released handle's scope ends; `nil`
    ///     keeps the one an earlier call gave, if any (else the observer alone hears of it).
    public func endsWhenReleased(
        with outcome: ScopeOutcome,
        log: (@Sendable (ResponseDisposalFailure) -> Void)? = nil
    ) {
        self.ifReleased.withLock { ifReleased in
            ifReleased.outcome = outcome
            if let log { ifReleased.log = log }
        }
    }

    /// Ends the scope: disposes its scoped instances in reverse order of construction, telling
    /// them `outcome`, and stops counting it for the drain. The first call ends it; later ones
    /// return at once.
    ///
    /// ```swift
    /// try await open.end(.succeeded)          // the response was written
    /// try await open.end(.failed(error))      // it was not
    /// ```
    ///
    /// - Parameter outcome: How the work in the scope ended.
    /// - Throws: ``InjectionError/Code/disposalFailed`` when a disposal threw (after every other
    ///   one ran), as ``InjectorActor/withScope(values:_:)`` does.
    public nonisolated(nonsending) func end(_ outcome: ScopeOutcome) async throws {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if let failure = await injector.close(after: outcome) { throw failure }
    }

    deinit {
        // No `end(_:)` runs now (it holds the handle): unended here means never ended.
        guard !isEnded else { return }
        let (given, log) = ifReleased.withLock { $0 }
        let outcome = given ?? .failed(CancellationError())
        // Detached: nothing of the releasing task (its current injector, its frame) belongs here.
        Task.detached { [scope = injector] in
            if let failure = await scope.close(after: outcome) {
                log?(ResponseDisposalFailure(error: failure, responseFailed: outcome.error != nil, afterRelease: true))
            }
        }
    }
}
