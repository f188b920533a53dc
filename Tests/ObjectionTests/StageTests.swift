import Testing

@testable import Objection

@Suite("Development and production stages", .hangLimit)
struct StageTests {
    static func module(built: Counter, log: Log) -> TestModule {
        TestModule { binder in
            binder.bind(Engine.self).to { _ in
                built.increment()
                log.append("engine")
                return Engine()
            }.asSingleton()
            binder.bind(Wheel.self).to { _ in Wheel() }  // Transient: never built up front.
        }
    }

    @Test("development builds a singleton on first use; production builds every singleton at creation")
    func whenSingletonsAreBuilt() async throws {
        let lazyCount = Counter()
        let development = try await InjectorActor(modules: [Self.module(built: lazyCount, log: Log())])
        #expect(development.stage == .development)
        #expect(lazyCount.value == 0)
        _ = try await development.get(Engine.self)
        #expect(lazyCount.value == 1)

        let eagerCount = Counter()
        let production = try await InjectorActor(
            modules: [Self.module(built: eagerCount, log: Log())], stage: .production)
        #expect(eagerCount.value == 1)
        let engine = try await production.get(Engine.self)
        #expect(try await production.get(Engine.self) === engine)
        #expect(eagerCount.value == 1)
    }

    @Test(
        "production builds only the singletons up front: a refreshable, custom-scoped or transient binding waits for its first use"
    )
    func onlySingletonsUpFront() async throws {
        let built = Log()
        let production = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Engine.self).to { _ in
                        built.append("singleton")
                        return Engine()
                    }.asSingleton()
                    binder.bind(Wheel.self).to { _ in
                        built.append("refreshable")
                        return Wheel()
                    }.inScope(.refreshable)
                    binder.bind(Resource.self).to { _ in
                        built.append("weak")
                        return Resource("weak", log: Log())
                    }.inScope(.weak)
                }
            ],
            stage: .production
        )
        #expect(built.values == ["singleton"])
        _ = try await production.get(Wheel.self)
        #expect(built.values == ["singleton", "refreshable"])
    }

    @Test("in production a singleton that cannot be built fails the start, and what was built is disposed")
    func failFast() async throws {
        let log = Log()
        let error = await #expect(throws: ProviderFailure.self) {
            _ = try await InjectorActor(
                modules: [
                    TestModule { binder in
                        binder.bind(Resource.self).to { _ in Resource("pool", log: log) }.asSingleton()
                        binder.bind(Engine.self).to { r in
                            _ = try await r.get(Resource.self)
                            throw ProviderFailure(attempt: 1)
                        }.asSingleton()
                    }
                ],
                stage: .production
            )
        }
        #expect(error == ProviderFailure(attempt: 1))
        #expect(log.values == ["pool"])
    }

    @Test("in production a singleton that reaches a scoped key through a closure fails the start")
    func captiveThroughClosure() async throws {
        let error = await injectionError {
            _ = try await InjectorActor(
                modules: [
                    TestModule { binder in
                        binder.bind(RequestID.self).suppliedByScope()
                        binder.bind(Engine.self).to { r in
                            _ = try await r.get(RequestID.self)
                            return Engine()
                        }.asSingleton()
                    }
                ],
                stage: .production
            )
        }
        #expect(error?.code == .scopeViolation)
    }

    @Test("children and derived injectors keep the stage; request scopes stay on demand")
    func stageIsInherited() async throws {
        let root = try await InjectorActor(modules: [], stage: .production)
        let built = Counter()
        let child = try await root.child(modules: [Self.module(built: built, log: Log())])
        #expect(child.stage == .production)
        #expect(built.value == 1)
        let derived = try await child.withModules([])
        #expect(derived.stage == .production)
        #expect(built.value == 2)

        let scopedBuilt = Counter()
        try await root.withScope(modules: [Self.module(built: scopedBuilt, log: Log())]) { _ in
            #expect(scopedBuilt.value == 0)
        }
    }
}
