import Testing

@testable import Objection

@Suite("Custom scopes")
struct CustomScopeTests {
    /// Keeps an instance for a fixed number of resolutions.
    final class CountingCache: ScopeCache {
        private let state = Lock<(value: (any Sendable)?, uses: Int)>((nil, 0))
        let limit: Int

        init(limit: Int) { self.limit = limit }

        func cachedInstance<T: Sendable>(as type: T.Type) -> T? {
            state.withLock { state in
                guard state.uses < limit, let value = state.value as? T else { return nil }
                state.uses += 1
                return value
            }
        }

        func keep<T: Sendable>(_ instance: T) {
            state.withLock { $0 = (instance, 0) }
        }
    }

    @Test("a custom scope reuses what its cache offers and builds again when it offers nothing")
    func customPolicy() async throws {
        let built = Counter()
        let everyThird = Scope.custom("everyThird") { CountingCache(limit: 2) }
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to { _ in
                built.increment(); return Engine()
            }.inScope(everyThird)
        }
        var engines: [Engine] = []
        for _ in 0..<6 { engines.append(try await injector.get(Engine.self)) }
        #expect(built.value == 2)
        #expect(engines[0] === engines[2] && engines[2] !== engines[3] && engines[3] === engines[5])
        #expect(everyThird.description == "everyThird")
        #expect(everyThird == Scope.custom("everyThird") { CountingCache(limit: 9) })
    }

    @Test("the weak scope shares an instance while someone holds it")
    func weakScope() async throws {
        let injector = try await makeInjector { $0.bind(Engine.self).to(Engine.init).inScope(.weak) }
        var held: Engine? = try await injector.get(Engine.self)
        #expect(try await injector.get(Engine.self) === held)
        weak let released = held
        held = nil
        #expect(released == nil)
        let fresh = try await injector.get(Engine.self)
        #expect(try await injector.get(Engine.self) === fresh)
    }
}
