import Testing

@testable import Objection

@Suite("Handles and injector lifetime", .hangLimit)
struct HandleLifetimeTests {
    @Test("a singleton holding a handle does not keep its injector alive; the handle then throws")
    func handlesDoNotRetainTheInjector() async throws {
        final class Keeper: Sendable {
            let engines: Factory<Engine>
            init(engines: Factory<Engine>) { self.engines = engines }
        }
        var injector: InjectorActor? = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(Keeper.self).to(Keeper.init).asSingleton()
        }
        weak let released = injector
        let keeper = try await injector?.get(Keeper.self)
        injector = nil
        await waitUntil { released == nil }  // See ShutdownTests.releasesInstances.
        #expect(released == nil)
        let error = await injectionError { _ = try await keeper?.engines() }
        #expect(error?.code == .shutDown)
    }
}
