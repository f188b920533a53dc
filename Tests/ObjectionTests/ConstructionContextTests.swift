import Testing

@testable import Objection

@Suite("Singleton construction context")
struct ConstructionContextTests {
    @TaskLocal static var requestID: String?

    @Test("a singleton's construction does not see the first caller's task-local values")
    func noRequestContextInSingletons() async throws {
        let seen = SeenValue()
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to { _ in
                seen.record(Self.requestID)
                return Engine()
            }.asSingleton()
            binder.bind(Wheel.self).to { _ in
                seen.record(Self.requestID)
                return Wheel()
            }
        }
        try await Self.$requestID.withValue("request-1") {
            _ = try await injector.get(Engine.self)
            _ = try await injector.get(Wheel.self)
        }
        #expect(seen.values == [nil, "request-1"])
    }

    final class SeenValue: Sendable {
        private let storage = Lock<[String?]>([])
        var values: [String?] { storage.withLock { $0 } }
        func record(_ value: String?) { storage.withLock { $0.append(value) } }
    }
}
