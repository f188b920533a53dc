import ObjectionTesting
import Testing

@testable import Objection

/// The construction policy (ConstructionPolicy.swift, the table in Architecture.md), one test per
/// row, each run for every kind of cache: a singleton, a scoped instance, a custom-scoped one and
/// a `Lazy` handle's.
@Suite("One construction policy, row by row, for every kind of cache")
struct ConstructionPolicyTests {
    /// Starts the first caller, lets a second one arrive while the first attempt is held, releases
    /// the attempt, and returns both callers' outcomes, with what the observer had heard of
    /// constructions the moment the second caller had its outcome. A custom scope shares no
    /// construction: its second caller builds its own, and finishes before the first is released.
    private func twoCallers(
        _ subject: PolicySubject
    ) async throws -> (
        builder: Result<PolicyScript.Value, any Error>, waiter: Result<PolicyScript.Value, any Error>,
        heardByWaiter: [String]
    ) {
        let builder = Task { try await subject.resolve() }
        await subject.script.entered.wait()
        let heardByWaiter = Lock<[String]>([])
        let waiter = Task {
            defer { heardByWaiter.withLock { $0 = subject.heardConstructions } }
            return try await subject.resolve()
        }
        if subject.kind.sharesConstruction {
            try await subject.waitForWaiter()
        } else {
            _ = await waiter.result
        }
        subject.script.release.open()
        return (await builder.result, await waiter.result, heardByWaiter.withLock { $0 })
    }

    @Test("a value is stored and handed to every caller waiting for it", arguments: CacheKind.allCases)
    func valueIsShared(kind: CacheKind) async throws {
        let subject = try await PolicySubject(kind, first: .value)
        try await withDeadline {
            let (builder, waiter, _) = try await twoCallers(subject)
            let (built, waited) = (try builder.get(), try waiter.get())
            #expect(built.attempt == 1)
            if kind.sharesConstruction {
                #expect(waited === built)
                #expect(subject.script.attempts.value == 1)
            } else {
                #expect(waited.attempt == 2)
            }
            // Stored: a custom scope's cache keeps what it was given last, the first caller's.
            #expect(try await subject.resolve() === built)
        }
        try await subject.shutdown()
    }

    @Test("a provider's error reaches every caller waiting for it and is not stored", arguments: CacheKind.allCases)
    func errorIsSharedNotStored(kind: CacheKind) async throws {
        let subject = try await PolicySubject(kind, first: .error)
        try await withDeadline {
            let (builder, waiter, _) = try await twoCallers(subject)
            #expect(throws: ProviderFailure(attempt: 1)) { try builder.get() }
            if kind.sharesConstruction {
                #expect(throws: ProviderFailure(attempt: 1)) { try waiter.get() }
                #expect(subject.script.attempts.value == 1)
                #expect(try await subject.resolve().attempt == 2)
            } else {
                #expect(try waiter.get().attempt == 2)
            }
        }
        try await subject.shutdown()
    }

    @Test(
        "a provider's cancellation belongs to the task that builds: a request's waiter builds again, a singleton's or a Lazy's waiter shares it",
        arguments: CacheKind.allCases
    )
    func cancellationBelongsToTheBuildingTask(kind: CacheKind) async throws {
        let subject = try await PolicySubject(kind, first: .cancellation)
        try await withDeadline {
            let (builder, waiter, _) = try await twoCallers(subject)
            #expect(throws: CancellationError.self) { try builder.get() }
            if kind.buildsOnCallersTask {
                // The builder, a caller's task, leaves with it; the waiter builds its own.
                let value = try waiter.get()
                #expect(value.attempt == 2)
                #expect(subject.script.attempts.value == 2)
                #expect(try await subject.resolve() === value)
            } else {
                // Built in a task of its own, which nobody cancelled: the provider's failure, once.
                #expect(throws: CancellationError.self) { try waiter.get() }
                #expect(subject.script.attempts.value == 1)
                #expect(try await subject.resolve().attempt == 2)
            }
        }
        try await subject.shutdown()
    }

    @Test("a resolution after shutdown began is refused with shutDown, built or not", arguments: CacheKind.allCases)
    func afterShutdownIsRefused(kind: CacheKind) async throws {
        for builtFirst in [false, true] {
            let subject = try await PolicySubject(kind, first: .value)
            if builtFirst {
                subject.script.release.open()
                _ = try await subject.resolve()
            }
            try await subject.shutdown()
            let error = await injectionError { _ = try await subject.resolve() }
            #expect(error?.code == .shutDown, "built first: \(builtFirst)")
            #expect(subject.script.attempts.value == (builtFirst ? 1 : 0))
        }
    }

    @Test(
        "a value arriving while shutdown waits for its construction reaches its caller, then is disposed",
        arguments: [CacheKind.singleton, .scoped]
    )
    func valueWhileDrainingIsKept(kind: CacheKind) async throws {
        let subject = try await PolicySubject(kind, first: .value)
        try await withDeadline {
            let builder = Task { try await subject.resolve() }
            await subject.script.entered.wait()
            let shutdown = Task { try await subject.shutdown() }
            await waitUntil { subject.injector.isShutDown }
            subject.script.release.open()
            #expect(try await builder.value.attempt == 1)
            try await shutdown.value
            #expect(subject.script.disposed.values == ["1"])
        }
    }

    @Test(
        "a value arriving after shutdown took the disposals is refused with shutDown, and disposed once if owned",
        arguments: CacheKind.allCases
    )
    func valueAfterTheDisposalsIsRefused(kind: CacheKind) async throws {
        let subject = try await PolicySubject(kind, first: .shutdownFirst)
        try await withDeadline {
            let error = await injectionError { _ = try await subject.resolve() }
            #expect(error?.code == .shutDown)
            // A custom scope's instances and a transient's are not the injector's to dispose.
            let owned = kind == .singleton || kind == .scoped
            if owned { await waitUntil { subject.script.disposed.values == ["1"] } }
            #expect(subject.script.disposed.values == (owned ? ["1"] : []))
        }
    }

    @Test(
        "the observer hears a shared construction succeed before its waiter has the value",
        arguments: [CacheKind.singleton, .scoped]
    )
    func observerHearsBeforeTheWaiters(kind: CacheKind) async throws {
        let subject = try await PolicySubject(kind, first: .value)
        try await withDeadline {
            let (_, waiter, heardByWaiter) = try await twoCallers(subject)
            _ = try waiter.get()
            #expect(heardByWaiter == ["started", "finished"])
            // Heard while the value was not in its cell yet, so no waiter could have had it.
            #expect(subject.builtWhenHeard.seen.withLock { $0 } == [false])
        }
        try await subject.shutdown()
    }

    @Test(
        "a value refused after shutdown took the disposals is heard as a failed construction, with shutDown",
        arguments: CacheKind.allCases
    )
    func refusedValueIsHeardFailed(kind: CacheKind) async throws {
        let subject = try await PolicySubject(kind, first: .shutdownFirst)
        try await withDeadline {
            let error = await injectionError { _ = try await subject.resolve() }
            #expect(error?.code == .shutDown)
        }
        // A Lazy handle's construction is not heard, nor is the transient it reads.
        #expect(subject.heardConstructions == (kind == .lazy ? [] : ["started", "failed InjectionError"]))
        let heard = subject.observer.failures.first?.error as? InjectionError
        #expect(heard?.code == (kind == .lazy ? nil : .shutDown))
    }

    @Test(
        "a singleton's and a Lazy's construction runs in a task of its own; a scoped or custom one on the caller's",
        arguments: CacheKind.allCases
    )
    func constructionTask(kind: CacheKind) async throws {
        let subject = try await PolicySubject(kind, first: .value)
        subject.script.release.open()
        try await withDeadline {
            _ = try await PolicyScript.$callerTag.withValue("caller") { try await subject.resolve() }
        }
        #expect(subject.script.seenTags.withLock { $0 } == [kind.buildsOnCallersTask ? "caller" : nil])
        try await subject.shutdown()
    }
}
