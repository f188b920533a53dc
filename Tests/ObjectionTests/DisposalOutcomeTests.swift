import Testing

@testable import Objection

@Suite("Disposal that knows the outcome", .hangLimit)
struct DisposalOutcomeTests {
    /// Commits or rolls back at disposal, as a unit of work does.
    final class UnitOfWork: OutcomeAwareDisposable {
        let log: Log
        init(log: Log) { self.log = log }
        func dispose(after outcome: ScopeOutcome) async throws {
            log.append(outcome.isSuccess ? "commit" : "rollback")
        }
    }

    /// Scoped, with an `onDispose` hook that records the outcome it is given.
    /// A scoped value whose disposal is a hook of its binding.
    final class Cart: Sendable {}

    struct Declined: Error, Equatable {}

    static func root(log: Log, failures: Log) async throws -> InjectorActor {
        try await makeInjector { binder in
            binder.bind(Log.self).toInstance(log)
            binder.bind(UnitOfWork.self).to(UnitOfWork.init).inScope(.scoped)
            binder.bind(Cart.self).to { _ in Cart() }.inScope(.scoped).onDispose { _, outcome in
                failures.append(outcome.error.map { "\(type(of: $0))" } ?? "none")
            }
        }
    }

    @Test("a scope whose body returns disposes with succeeded")
    func returnedCommits() async throws {
        let (log, failures) = (Log(), Log())
        let root = try await Self.root(log: log, failures: failures)
        try await root.withScope(values: { _ in }) { scope in
            _ = try await scope.get(UnitOfWork.self)
            _ = try await scope.get(Cart.self)
        }
        #expect(log.values == ["commit"])
        #expect(failures.values == ["none"])
    }

    /// Disposed without knowing the outcome.
    final class Connection: AsyncDisposable {
        let log: Log
        init(log: Log) { self.log = log }
        func dispose() async throws { log.append("closed") }
    }

    protocol Work: Sendable {}
    final class Ledger: Work, OutcomeAwareDisposable {
        let log: Log
        init(log: Log) { self.log = log }
        func dispose(after outcome: ScopeOutcome) async throws {
            log.append(outcome.isSuccess ? "ledger committed" : "ledger rolled back")
        }
    }

    @Test(
        "each shape of disposable value is disposed as its type says: of its key's type, plain or outcome-aware, or behind a protocol key",
        arguments: [true, false]
    )
    func everyShapeOfDisposable(succeeds: Bool) async throws {
        let log = Log()
        let root = try await makeInjector { binder in
            binder.bind(Log.self).toInstance(log)
            binder.bind(UnitOfWork.self).to(UnitOfWork.init).inScope(.scoped)
            binder.bind(Connection.self).to(Connection.init).inScope(.scoped)
            binder.bind((any Work).self).to { r in Ledger(log: try await r.get()) }.inScope(.scoped)
        }
        try? await root.withScope(values: { _ in }) { scope in
            _ = try await scope.get(UnitOfWork.self)
            _ = try await scope.get(Connection.self)
            _ = try await scope.get((any Work).self)
            if !succeeds { throw Declined() }
        }
        // Disposed in reverse order of construction.
        let expected =
            succeeds ? ["ledger committed", "closed", "commit"] : ["ledger rolled back", "closed", "rollback"]
        #expect(log.values == expected)
    }

    @Test("a scope whose body throws disposes with failed, carrying the body's error")
    func thrownRollsBack() async throws {
        let (log, failures) = (Log(), Log())
        let root = try await Self.root(log: log, failures: failures)
        await #expect(throws: Declined()) {
            try await root.withScope(modules: []) { scope in
                _ = try await scope.get(UnitOfWork.self)
                _ = try await scope.get(Cart.self)
                throw Declined()
            }
        }
        #expect(log.values == ["rollback"])
        #expect(failures.values == ["Declined"])
    }

    @Test("a scope with its own modules passes the outcome too")
    func scopeWithModules() async throws {
        let (log, failures) = (Log(), Log())
        let root = try await Self.root(log: log, failures: failures)
        await #expect(throws: Declined()) {
            try await root.withScope(modules: [RequestModule(id: 1)]) { scope in
                _ = try await scope.get(UnitOfWork.self)
                throw Declined()
            }
        }
        #expect(log.values == ["rollback"])
    }

    @Test("an injector's shutdown disposes its singletons with succeeded")
    func shutdownSucceeds() async throws {
        let log = Log()
        let injector = try await makeInjector { binder in
            binder.bind(Log.self).toInstance(log)
            binder.bind(UnitOfWork.self).to(UnitOfWork.init).asSingleton()
        }
        _ = try await injector.get(UnitOfWork.self)
        #expect(await injector.shutdown(within: nil) == nil)
        #expect(log.values == ["commit"])
    }

    @Test("code that knows only AsyncDisposable disposes as after success")
    func plainDisposeMeansSuccess() async throws {
        let log = Log()
        let disposable: any AsyncDisposable = UnitOfWork(log: log)
        try await disposable.dispose()
        #expect(log.values == ["commit"])
    }

    @Test("a one-argument onDispose hook still runs, whatever the outcome")
    func oneArgumentHook() async throws {
        let disposed = Counter()
        let root = try await makeInjector { binder in
            binder.bind(Cart.self).to { _ in Cart() }.inScope(.scoped).onDispose { _ in disposed.increment() }
        }
        _ = try? await root.withScope(values: { _ in }) { scope in
            _ = try await scope.get(Cart.self)
            throw Declined()
        }
        #expect(disposed.value == 1)
    }
}
