import Testing

@testable import Objection

@Suite("Scopes around a lent resource", .hangLimit)
struct AroundScopeTests {
    /// Scoped: one per request, built on the lent connection, logging its disposal.
    final class ConnectionRepository: AsyncDisposable {
        let connection: Lender.Connection
        let log: Log
        init(connection: Lender.Connection, log: Log) {
            self.connection = connection
            self.log = log
        }
        func dispose() async throws { log.append("dispose repository") }
    }

    struct Rejected: Error, Equatable {}

    static func root(log: Log) async throws -> InjectorActor {
        try await makeInjector { binder in
            binder.bind(Log.self).toInstance(log)
            binder.bind(Lender.Connection.self).suppliedByScope()
            binder.bind(ConnectionRepository.self).to(ConnectionRepository.init).inScope(.scoped)
        }
    }

    @Test("the lent resource is a request value, and the scope ends before the lender commits")
    func commitsAfterDisposal() async throws {
        let lender = Lender()
        let root = try await Self.root(log: lender.log)
        let id = try await root.withScope(around: { enter in
            try await lender.withTransaction { connection in
                try await enter { $0.bind(Lender.Connection.self, to: connection) }
            }
        }) { scope in
            try await scope.get(ConnectionRepository.self).connection.id
        }
        #expect(id == 7)
        #expect(lender.log.values == ["begin", "dispose repository", "commit"])
    }

    @Test("the body's error reaches the caller as thrown, not as the lender wrapped it, after a rollback")
    func bodyErrorIsNotWrapped() async throws {
        let lender = Lender()
        let root = try await Self.root(log: lender.log)
        await #expect(throws: Rejected()) {
            try await root.withScope(around: { enter in
                try await lender.withTransaction { connection in
                    try await enter { $0.bind(Lender.Connection.self, to: connection) }
                }
            }) { scope in
                _ = try await scope.get(ConnectionRepository.self)
                throw Rejected()
            }
        }
        #expect(lender.log.values == ["begin", "dispose repository", "rollback"])
    }

    @Test("a lender that fails after the body succeeded (a failed commit) fails the call")
    func lenderFailureAfterSuccess() async throws {
        let lender = Lender(commitFails: true)
        let root = try await Self.root(log: lender.log)
        let result = await outcome {
            try await root.withScope(around: { enter in
                try await lender.withTransaction { connection in
                    try await enter { $0.bind(Lender.Connection.self, to: connection) }
                }
            }) { scope in try await scope.get(ConnectionRepository.self).connection.id }
        }
        #expect(throws: Lender.CommitFailed.self) { try result.get() }
    }

    @Test("a wrapper that swallows the body's error does not turn it into a success")
    func swallowedErrorStillThrows() async throws {
        let root = try await Self.root(log: Log())
        await #expect(throws: Rejected()) {
            try await root.withScope(around: { enter in
                try? await enter { _ in }
            }) { _ in throw Rejected() }
        }
    }

    @Test("a wrapper that never enters, or enters twice, is refused with scopeNotEntered")
    func mustEnterOnce() async throws {
        let root = try await Self.root(log: Log())
        let never = await injectionError {
            _ = try await root.withScope(around: { _ in }) { _ in 1 }
        }
        #expect(never?.code == .scopeNotEntered)

        let bodies = Counter()
        let twice = await injectionError {
            _ = try await root.withScope(around: { enter in
                try await enter { _ in }
                try await enter { _ in }
            }) { _ in bodies.increment() }
        }
        #expect(twice?.code == .scopeNotEntered)
        #expect(bodies.value == 1)
    }

    @Test("values bound on entry answer suppliedByScope keys, and the scope is the current injector")
    func scopeIsCurrent() async throws {
        let root = try await Self.root(log: Log())
        let sameScope = try await root.withScope(around: { enter in
            try await enter { $0.bind(Lender.Connection.self, to: Lender.Connection(id: 3)) }
        }) { scope in
            let current = InjectorActor.current
            let connection = try await scope.get(Lender.Connection.self)
            return current === scope && connection.id == 3
        }
        #expect(sameScope)
    }
}
