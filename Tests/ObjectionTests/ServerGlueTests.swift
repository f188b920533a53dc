import Testing

@testable import Objection

/// What every server integration shares: how a failure is sorted (`RequestFailure`) and how a
/// request's scope ends after its response (`OpenScope.endAfterResponse`, `endAfterFailure`).
@Suite("Server glue written once")
struct ServerGlueTests {
    final class Work: Sendable {}
    struct CommitFailed: Error {}

    @Test("a cancellation, a refusal while shutting down, and anything else are sorted apart")
    func sortsFailures() async throws {
        // A cancellation only when the task that sorts it was cancelled.
        #expect(RequestFailure(CancellationError()) == .unexpected)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return RequestFailure(CancellationError())
        }
        #expect(await cancelled.value == .cancelled)
        let injector = try await makeInjector { _ in }
        _ = await injector.shutdown(within: nil)
        let refusal = await injectionError { _ = try await injector.openScope() }
        #expect(RequestFailure(try #require(refusal)) == .shuttingDown)
        let afterShutdown = await injectionError { _ = try await injector.get(Work.self) }
        #expect(RequestFailure(try #require(afterShutdown)) == .shuttingDown)
        let unbound = try await makeInjector { _ in }
        let notBound = await injectionError { _ = try await unbound.get(Work.self) }
        #expect(RequestFailure(try #require(notBound)) == .unexpected)
        #expect(RequestFailure(ProviderFailure(attempt: 1)) == .unexpected)
        // A request scope that has ended is a bug of the server's, not a refusal to retry elsewhere.
        let open = try await unbound.openScope()
        try await open.end(.succeeded)
        let ended = await injectionError { _ = try await open.injector.get(Work.self) }
        #expect(ended?.code == .shutDown)
        #expect(RequestFailure(try #require(ended)) == .unexpected)
    }

    /// A root whose scoped `Work` records the outcome it is disposed with, and fails its disposal
    /// when told to.
    private func root(failing: Bool, outcomes: Log) async throws -> InjectorActor {
        try await makeInjector { binder in
            binder.bind(Work.self).to { _ in Work() }.inScope(.scoped).onDispose { _, outcome in
                outcomes.append(outcome.isSuccess ? "succeeded" : "failed")
                if failing { throw CommitFailed() }
            }
        }
    }

    @Test("after a response that succeeded, a failed disposal is logged once and thrown, to cut it short")
    func failedDisposalAfterSuccess() async throws {
        let outcomes = Log()
        let open = try await root(failing: true, outcomes: outcomes).openScope()
        _ = try await open.injector.get(Work.self)
        let logged = Lock<[ResponseDisposalFailure]>([])
        let error = await injectionError {
            try await open.endAfterResponse { failure in logged.withLock { $0.append(failure) } }
        }
        #expect(error?.code == .disposalFailed)
        #expect(outcomes.values == ["succeeded"])
        let failure = try #require(logged.withLock { $0 }.first)
        #expect(logged.withLock { $0.count } == 1)
        #expect(!failure.responseFailed)
        #expect(failure.message.hasSuffix("the response is cut short"))
        // Ended: a second end does nothing.
        try await open.endAfterResponse { _ in Issue.record("logged twice") }
    }

    @Test("after a response that failed, a failed disposal is logged and the response's failure stays")
    func failedDisposalAfterFailure() async throws {
        let outcomes = Log()
        let open = try await root(failing: true, outcomes: outcomes).openScope()
        _ = try await open.injector.get(Work.self)
        let logged = Lock<[ResponseDisposalFailure]>([])
        await open.endAfterFailure(ProviderFailure(attempt: 1)) { failure in logged.withLock { $0.append(failure) } }
        #expect(outcomes.values == ["failed"])
        let failure = try #require(logged.withLock { $0 }.first)
        #expect(failure.responseFailed)
        #expect((failure.error as? InjectionError)?.code == .disposalFailed)
        #expect(!failure.loggable.description.isEmpty)
    }

    @Test("a disposal that succeeds logs nothing, whatever the response's outcome")
    func cleanEnds() async throws {
        for succeeded in [true, false] {
            let outcomes = Log()
            let open = try await root(failing: false, outcomes: outcomes).openScope()
            _ = try await open.injector.get(Work.self)
            if succeeded {
                try await open.endAfterResponse { _ in Issue.record("nothing failed") }
            } else {
                await open.endAfterFailure(CommitFailed()) { _ in Issue.record("nothing failed") }
            }
            #expect(outcomes.values == [succeeded ? "succeeded" : "failed"])
        }
    }

    @Test("a 5xx answer ends the scope failed with its status; any other answer, succeeded")
    func serverErrorAnswers() async throws {
        for (code, reason, failed) in [
            (200, "OK", false), (404, "Not Found", false), (499, "Client Closed", false),
            (500, "Internal Server Error", true), (503, "Service Unavailable", true), (599, "Custom", true),
            (600, "Beyond", false),
        ] {
            let outcome = ScopeOutcome.afterResponse(code: code, reasonPhrase: reason)
            #expect(outcome.isSuccess == !failed, "\(code)")
            let status = (outcome.error as? ServerErrorStatus)?.status
            #expect(status?.code == (failed ? code : nil))
            #expect(status?.reasonPhrase == (failed ? reason : nil))
        }
        let busy = ServerErrorStatus(status: .init(code: 503, reasonPhrase: "Busy"))
        #expect(busy.status == .serviceUnavailable, "equal by code")
        #expect(busy.status != .badGateway)
        #expect(busy.description == "503 Busy")
        #expect(ServerErrorStatus(status: .serviceUnavailable).description == "503 Service Unavailable")
        let statuses: Set<ServerErrorStatus.Status> = [.serviceUnavailable, busy.status, .badGateway]
        #expect(statuses.count == 2, "hashed by code, as compared")

        // Ended after a 5xx answer, the disposals hear the status; a failed disposal is logged, not thrown.
        let outcomes = Log()
        let open = try await root(failing: true, outcomes: outcomes).openScope()
        _ = try await open.injector.get(Work.self)
        var logged: [ResponseDisposalFailure] = []
        try await open.endAfterResponse(.afterResponse(code: 502, reasonPhrase: "Bad Gateway")) { logged.append($0) }
        #expect(outcomes.values == ["failed"])
        #expect(logged.count == 1)
        #expect(logged.first?.responseFailed == true)

        // What the disposals are told is the status itself.
        let told = Log()
        let injector = try await makeInjector { binder in
            binder.bind(Work.self).to { _ in Work() }.inScope(.scoped).onDispose { _, outcome in
                told.append((outcome.error as? ServerErrorStatus)?.description ?? "no status")
            }
        }
        let answered = try await injector.openScope()
        _ = try await answered.injector.get(Work.self)
        try await answered.endAfterResponse(.afterResponse(code: 504, reasonPhrase: "Gateway Timeout")) { _ in
            Issue.record("nothing failed")
        }
        #expect(told.values == ["504 Gateway Timeout"])
    }
}
