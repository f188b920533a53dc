import Testing

@testable import Objection

@Suite("Each instance is disposed once, by the cache that built it")
struct DisposalOwnershipTests {
    @Test("a singleton alias of a singleton does not dispose the shared instance again")
    func singletonAliasOfSingleton() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(CountedResource.self).to(CountedResource.init).asSingleton()
            binder.bind((any AsyncDisposable).self).to(CountedResource.self).asSingleton()
        }
        let resource = try await injector.get(CountedResource.self)
        #expect(try await injector.get((any AsyncDisposable).self) as? CountedResource === resource)
        await injector.shutdown(within: nil)
        #expect(resource.disposals.value == 1)
    }

    @Test("a cached alias of the caller's instance never disposes it")
    func aliasOfInstance() async throws {
        let mine = CountedResource()
        let injector = try await makeInjector { binder in
            binder.bind(CountedResource.self).toInstance(mine)
            binder.bind((any AsyncDisposable).self).to(CountedResource.self).asSingleton()
        }
        _ = try await injector.get((any AsyncDisposable).self)
        await injector.shutdown(within: nil)
        #expect(mine.disposals.value == 0)
    }

    @Test("a scoped alias of a scoped instance disposes it once, at the end of the request")
    func scopedAliasOfScoped() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(CountedResource.self).to(CountedResource.init).inScope(.scoped)
            binder.bind((any AsyncDisposable).self).to(CountedResource.self).inScope(.scoped)
        }
        let resource = try await injector.withScope { scope in
            let resource = try await scope.get(CountedResource.self)
            #expect(try await scope.get((any AsyncDisposable).self) as? CountedResource === resource)
            return resource
        }
        #expect(resource.disposals.value == 1)
        await injector.shutdown(within: nil)
        #expect(resource.disposals.value == 1)
    }

    @Test("a scoped alias of a singleton leaves it to the injector's shutdown")
    func scopedAliasOfSingleton() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(CountedResource.self).to(CountedResource.init).asSingleton()
            binder.bind((any AsyncDisposable).self).to(CountedResource.self).inScope(.scoped)
        }
        let resource = try await injector.withScope { scope in
            try await scope.get((any AsyncDisposable).self) as? CountedResource
        }
        #expect(resource?.disposals.value == 0)
        await injector.shutdown(within: nil)
        #expect(resource?.disposals.value == 1)
    }

    @Test("a singleton alias of a transient target is the only cache of it, so it disposes it once")
    func singletonAliasOfTransient() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(CountedResource.self).to(CountedResource.init)
            binder.bind((any AsyncDisposable).self).to(CountedResource.self).asSingleton()
        }
        let resource = try await injector.get((any AsyncDisposable).self) as? CountedResource
        await injector.shutdown(within: nil)
        #expect(resource?.disposals.value == 1)
    }
}
