import ObjectionTesting
import Testing

@testable import Objection

/// A `Named` parameter over a handle (`Named<Lazy<Pool>, Primary>`): the creation check accepts
/// it, so resolution must answer it, as `get(Lazy<Pool>.self, named:)` does.
@Suite("Named parameters over handles", .hangLimit)
struct NamedHandleTests {
    final class Pool: Sendable {}
    enum Primary: BindingName { static let name = "primary" }

    final class UsesLazy: Sendable {
        let pool: Named<Lazy<Pool>, Primary>
        init(pool: Named<Lazy<Pool>, Primary>) { self.pool = pool }
    }

    final class UsesFactory: Sendable {
        let pool: Named<Factory<Pool>, Primary>
        init(pool: Named<Factory<Pool>, Primary>) { self.pool = pool }
    }

    @Test("autowired, in an ad-hoc build and through a closure, a named handle resolves its named binding")
    func namedHandlesResolve() async throws {
        let primary = Pool()
        let injector = try await makeInjector { binder in
            binder.bind(Pool.self, named: Primary.name).toInstance(primary)
            binder.bind(Pool.self).to { _ in Pool() }
            binder.bind(UsesLazy.self).to(UsesLazy.init)
            binder.bind(UsesFactory.self).to(UsesFactory.init)
        }
        #expect(try await injector.get(UsesLazy.self).pool.value.value === primary)
        #expect(try await injector.get(UsesFactory.self).pool.value() === primary)
        #expect(try await injector.build(UsesLazy.init).pool.value.value === primary)
        #expect(await injector.shutdown(within: nil) == nil)
    }
}
