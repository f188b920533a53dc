import ObjectionTesting
import Testing

@testable import Objection

/// The observer pass (#27): construction notes lent by pointer to the synchronous resolvers, and
/// the observer shared by reference with what derives from a root, which keeps the root's answers.
extension ObserverTests {
    @Test(
        "a child of a request scope builds scoped dependencies in the scope in place, reported nested"
    )
    func childOfScopeReportsSynchronousConstructions() async throws {
        let recorder = RecordingObserver()
        let root = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Ledger.self).to(Ledger.init).inScope(.scoped)
                    binder.bind(Journal.self).to(Journal.init).inScope(.scoped)
                    binder.bind(Handler.self).to(Handler.init)
                }
            ],
            observer: recorder
        )
        let (builtSynchronously, keptByScope) = try await root.withScope(values: { _ in }) { scope in
            // Not a scope: the transient's scoped dependency is built by its enclosing scope's
            // resolver, which is handed the same notes.
            let child = try await scope.child(modules: [])
            let handler = try await child.get(Handler.self)
            return (handler.journal.builtSynchronously, try await scope.get(Journal.self) === handler.journal)
        }
        #expect(builtSynchronously)
        #expect(keptByScope)
        #expect(recorder.order == ["+Journal", "+Ledger", "-Ledger", "-Journal"])
        let journal = try #require(recorder.construction(of: Journal.self))
        let ledger = try #require(recorder.construction(of: Ledger.self))
        #expect(journal.parentID == nil && ledger.parentID == journal.id)
        #expect(recorder.ended.allSatisfy { !$0.failed })
    }

    /// Ends the request scope it is given from inside a synchronous initializer, as a scope
    /// ending on another task, without waiting for this build, would between the claim and the
    /// record: shutdown begun and the disposals taken.
    final class ScopeEnder: Sendable {
        let scope = Lock<InjectorActor?>(nil)
    }

    /// Ends its scope while it is built.
    final class ScopeEndingAudit: Sendable {
        init(ender: ScopeEnder) {
            guard let scope = ender.scope.withLock({ $0 }) else { return }
            scope.shutdownFlag.set()
            _ = scope.shutdownState.withLock { $0.close() }
        }
    }

    @Test(
        "a scoped instance built in place after its scope took the disposals is reported once, as failed, and its get fails",
        arguments: [true, false]
    )
    func scopeEndsDuringSynchronousBuild(observesSuccesses: Bool) async throws {
        let ender = ScopeEnder()
        // The root holds the ender, which holds the scope, which holds the root: let go at the end.
        defer { ender.scope.withLock { $0 = nil } }
        let recorder = RecordingObserver()
        let failures = RecordingObserver(observesSuccesses: false)
        let root = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(ScopeEnder.self).toInstance(ender)
                    binder.bind(ScopeEndingAudit.self).to(ScopeEndingAudit.init).inScope(.scoped)
                }
            ],
            observer: observesSuccesses ? recorder as any InjectionObserver : failures
        )
        let error = try await root.withScope(values: { _ in }) { scope in
            ender.scope.withLock { $0 = scope }
            return await injectionError { _ = try await scope.get(ScopeEndingAudit.self) }
        }
        #expect(error?.code == .shutDown)
        let log = observesSuccesses ? recorder.lines : failures.lines
        #expect(
            log
                == (observesSuccesses ? ["started ScopeEndingAudit scoped"] : [])
                + ["failed ScopeEndingAudit scoped InjectionError", "get failed ScopeEndingAudit shutDown"])
    }

    @Test("a disposal run in the background after shutdown reaches an observer of successes, without an error")
    func lateSuccessfulDisposalIsObserved() async throws {
        let heard = Gate()
        let observer = StrictObserver(hook: { event, _ in if event == "disposed" { heard.open() } })
        let release = Gate()
        _ = try await StartupTests.shutDownWhileSchemaIsBuilt(release: release, observer: observer) { _ in }
        #expect(observer.recorded.disposed.isEmpty)
        release.open()
        await heard.wait()
        #expect(observer.recorded.lines.filter { $0.hasPrefix("disposed") } == ["disposed Schema"])
    }

    @Test(
        "an observer is asked what it wants once, by its root: not by children, scopes or derived injectors"
    )
    func askedOncePerRoot() async throws {
        let observer = QuestionedObserver(later: true)
        let root = try await InjectorActor(modules: [], observer: observer)
        let child = try await root.child(modules: [TestModule { $0.bind(Wheel.self).to(Wheel.init).asSingleton() }])
        for injector in [root, child] {
            try await injector.withScope(values: { _ in }) { scope in
                try await scope.withScope(values: { _ in }) { _ in }
            }
        }
        _ = try await child.get(Wheel.self)
        #expect(observer.asked.withLock { [$0.successes, $0.scopes] } == [1, 1])
        // A derived injector is a new root that keeps the observer it came from, and its answers.
        let derived = try await child.withModules([])
        _ = try await derived.get(Wheel.self)
        try await derived.withScope(values: { _ in }) { _ in }
        #expect(observer.asked.withLock { [$0.successes, $0.scopes] } == [1, 1])
        #expect(
            observer.recorded.lines == [
                "scope opened", "scope opened", "scope opened", "scope opened",
                "started Wheel singleton", "started Wheel singleton", "scope opened",
            ])
    }

    @Test("derived injectors keep the observer's answer to observesSuccesses")
    func derivedKeepsAnswer() async throws {
        let observer = QuestionedObserver(later: false)
        let root = try await InjectorActor(
            modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asSingleton() }], observer: observer)
        let derived = try await root.withModules([])
        let child = try await root.child(modules: [])
        _ = try await root.get(Engine.self)
        _ = try await derived.get(Engine.self)
        _ = try await child.get(Engine.self)
        #expect(
            observer.recorded.started.count == 2,
            "root and derived each built one Engine; asked \(observer.asked.withLock { $0.successes }) times"
        )
    }
}
