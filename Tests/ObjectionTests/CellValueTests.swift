import Testing

@testable import Objection

/// A cell holds a class instance as itself and anything else boxed; every kind of key type must
/// come back out as the value that went in.
@Suite("Cached values of every kind of type")
struct CellValueTests {
    protocol ClassBound: AnyObject, Sendable {}
    final class Service: ClassBound {}
    class Base: @unchecked Sendable {}
    final class Derived: Base, @unchecked Sendable {}
    struct Settings: Sendable, Equatable { var name: String; var limit: Int }

    @Test("singletons and scoped instances of existential and struct keys are cached as themselves")
    func cachedThroughInjector() async throws {
        let injector = try await makeInjector { binder in
            binder.bind((any ClassBound).self).to { _ in Service() }.asSingleton()
            binder.bind(Settings.self).to { _ in Settings(name: "scoped", limit: 1) }.inScope(.scoped)
            binder.bind(Base.self).to { _ in Derived() }.inScope(.scoped)
        }
        let first = try await injector.get((any ClassBound).self)
        #expect(try await injector.get((any ClassBound).self) === first)
        try await injector.withScope { scope in
            let base = try await scope.get(Base.self)
            #expect(base is Derived)
            #expect(try await scope.get(Base.self) === base)
            #expect(try await scope.get(Settings.self) == Settings(name: "scoped", limit: 1))
        }
    }
}
