import ObjectionTesting
import Testing

@testable import Objection

/// Startups and request scopes as an observer hears them, and the identities an observer of
/// failures only gets.
extension ObserverTests {
    @Test("a startup is reported once, before and after the singletons it builds, which name it as parent")
    func startupHooks() async throws {
        let recorder = RecordingObserver(observesScopes: true)
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Top.self).to { resolver in
                        _ = try await resolver.get(Middle.self)
                        return Top()
                    }.asEagerSingleton()
                    binder.bind(Middle.self).to { _ in
                        await Task.yield()
                        return Middle()
                    }.asEagerSingleton()
                    binder.bind(Bottom.self).to(Bottom.init).asEagerSingleton()
                }
            ],
            observer: recorder
        )
        let startup = try #require(recorder.startupID)
        #expect(recorder.startups == ["started \(startup) 3", "finished \(startup) ok"])
        let top = try #require(recorder.construction(of: Top.self))
        let middle = try #require(recorder.construction(of: Middle.self))
        let bottom = try #require(recorder.construction(of: Bottom.self))
        #expect(top.parentID?.rawValue == startup && bottom.parentID?.rawValue == startup)
        // Startup asks for Middle too; Top's provider may get there first and then be its parent.
        #expect(middle.parentID?.rawValue == startup || middle.parentID == top.id)
        #expect([top, middle, bottom].allSatisfy { $0.id.rawValue > startup })
        // A later start builds nothing more and reports nothing more.
        try await injector.start()
        #expect(recorder.startups.count == 4)
        await injector.shutdown(within: nil)
    }

    @Test("a failed startup is reported once, with its error")
    func failedStartup() async throws {
        let recorder = RecordingObserver(observesScopes: true)
        await #expect(throws: ProviderFailure(attempt: 5)) {
            _ = try await InjectorActor(
                modules: [
                    TestModule { binder in
                        binder.bind(Top.self).to { _ -> Top in throw ProviderFailure(attempt: 5) }.asEagerSingleton()
                    }
                ],
                observer: recorder
            )
        }
        let startup = try #require(recorder.startupID)
        #expect(recorder.startups == ["started \(startup) 1", "finished \(startup) error"])
        let ended = recorder.ended
        #expect(ended.count == 1 && ended.first?.failed == true && ended.first?.0.parentID?.rawValue == startup)
    }

    @Test("scope events reach only an observer that asks for them, once per scope, with the body's outcome")
    func scopeEvents() async throws {
        let asking = RecordingObserver(observesScopes: true)
        let notAsking = RecordingObserver()
        #expect(SilentObserver().observesScopes == false)
        for recorder in [asking, notAsking] {
            let injector = try await InjectorActor(modules: [], observer: recorder)
            try await injector.withScope(values: { _ in }) { _ in }
            await #expect(throws: ProviderFailure(attempt: 3)) {
                try await injector.withScope(modules: []) { _ in throw ProviderFailure(attempt: 3) }
            }
            // A child reports to the root's observer with the root's answer.
            let child = try await injector.child(modules: [])
            try await child.withScope(values: { _ in }) { _ in }
        }
        #expect(
            asking.scopes == ["opened", "ended", "opened", "ended failed", "opened", "ended"])
        #expect(notAsking.scopes.isEmpty)
    }

    @Test("an observer of failures only gets identities without parents")
    func failuresOnlyHaveNoParents() async throws {
        let observer = RecordingObserver(observesSuccesses: false)
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Top.self).to { resolver in
                        _ = try await resolver.get(Bottom.self)
                        return Top()
                    }.asSingleton()
                    binder.bind(Bottom.self).to { _ -> Bottom in
                        await Task.yield()
                        throw ProviderFailure(attempt: 4)
                    }.asSingleton()
                }
            ],
            observer: observer
        )
        await #expect(throws: ProviderFailure(attempt: 4)) { try await injector.get(Top.self) }
        let failed = observer.ended.filter(\.failed).map(\.construction)
        #expect(failed.map(\.key) == [BindingKey(Bottom.self), BindingKey(Top.self)])
        #expect(failed.allSatisfy { $0.parentID == nil })
        #expect(failed[0].id != failed[1].id)
    }
}
