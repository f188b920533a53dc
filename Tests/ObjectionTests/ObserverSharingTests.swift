import Testing

@testable import Objection

/// The observer pass (#27): construction notes lent by pointer to the synchronous resolvers, and
/// the observer shared by reference with what derives from a root.
@Suite("Observer sharing and synchronous notes", .timeLimit(.minutes(1)))
struct ObserverSharingTests {
    @Test(
        "a child of a request scope builds a transient's scoped dependencies in the scope without suspending, and they are reported nested"
    )
    func childOfScopeReportsSynchronousConstructions() async throws {
        final class Ledger: Sendable {}
        final class Journal: Sendable {
            let builtSynchronously: Bool
            init(ledger: Ledger) { builtSynchronously = ResolutionFrame.current == nil }
        }
        final class Handler: Sendable {
            let journal: Journal
            init(journal: Journal) { self.journal = journal }
        }
        let recorder = ConstructionTreeTests.TreeRecorder(wantsScopes: false)
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
        #expect(recorder.state.withLock { $0.order } == ["+Journal", "+Ledger", "-Ledger", "-Journal"])
        let journal = try #require(recorder.construction(of: Journal.self))
        let ledger = try #require(recorder.construction(of: Ledger.self))
        #expect(journal.parentID == nil && ledger.parentID == journal.id)
        #expect(recorder.state.withLock { $0.ended.allSatisfy { !$0.failed } })
    }

    /// Ends the request scope it is given from inside a synchronous initializer, as a scope
    /// ending on another task would between the claim and the record.
    final class ScopeEnder: Sendable {
        let scope = Lock<InjectorActor?>(nil)
    }

    final class Audit: Sendable {
        init(ender: ScopeEnder) { ender.scope.withLock { $0 }?.shutdownFlag.set() }
    }

    @Test(
        "a scoped instance built in place while its scope ends is reported once, as failed, and its get fails",
        arguments: [true, false]
    )
    func scopeEndsDuringSynchronousBuild(observesSuccesses: Bool) async throws {
        let ender = ScopeEnder()
        // The root holds the ender, which holds the scope, which holds the root: let go at the end.
        defer { ender.scope.withLock { $0 = nil } }
        let recorder = ObserverTests.Recorder()
        let failures = ObserverTests.FailureRecorder()
        let root = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(ScopeEnder.self).toInstance(ender)
                    binder.bind(Audit.self).to(Audit.init).inScope(.scoped)
                }
            ],
            observer: observesSuccesses ? recorder as any InjectionObserver : failures
        )
        let error = try await root.withScope(values: { _ in }) { scope in
            ender.scope.withLock { $0 = scope }
            return await injectionError { _ = try await scope.get(Audit.self) }
        }
        #expect(error?.code == .shutDown)
        let log = observesSuccesses ? recorder.log.values : failures.log.values
        #expect(
            log
                == (observesSuccesses ? ["started Audit scoped"] : [])
                + ["failed Audit scoped InjectionError", "get failed Audit shutDown"])
    }

    @Test("a disposal run in the background after shutdown reaches an observer of successes, without an error")
    func lateSuccessfulDisposalIsObserved() async throws {
        final class Disposals: InjectionObserver {
            let log = Log()
            let heard = Gate()
            func disposed(_ key: BindingKey, duration: Duration, error: (any Error)?) {
                log.append("disposed \(key)\(error.map { " \(type(of: $0))" } ?? "")")
                heard.open()
            }
        }
        let observer = Disposals()
        let release = Gate()
        _ = try await StartupTests.shutDownWhileSchemaIsBuilt(release: release, observer: observer) { _ in }
        #expect(observer.log.values.isEmpty)
        release.open()
        await observer.heard.wait()
        #expect(observer.log.values == ["disposed Schema"])
    }

    @Test(
        "an observer is asked what it wants once, by the root made with it: not by its children, scopes or derived injectors"
    )
    func askedOncePerRoot() async throws {
        final class Counting: InjectionObserver {
            let asked = Lock((successes: 0, scopes: 0))
            let log = Log()
            var observesSuccesses: Bool {
                asked.withLock { $0.successes += 1 }
                return true
            }
            var observesScopes: Bool {
                asked.withLock { $0.scopes += 1 }
                return true
            }
            func constructionStarted(_ key: BindingKey, scope: Scope) { log.append("started \(key)") }
            func scopeOpened() { log.append("opened") }
        }
        let observer = Counting()
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
            observer.log.values == ["opened", "opened", "opened", "opened", "started Wheel", "started Wheel", "opened"])
    }
}
