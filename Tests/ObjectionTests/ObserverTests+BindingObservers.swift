import ObjectionTesting
import Testing

@testable import Objection

/// An observer that prepares a ``BindingObserver`` per binding and keeps each construction's
/// state in the ``ConstructionObserver`` it answers: asked once per binding, handed back its own
/// answers as endings and as parents, on both resolution paths and through a combination.
extension ObserverTests {
    final class Pool: Sendable {}
    final class Repository: Sendable {
        init(pool: Pool) {}
    }
    final class Failing: Sendable {}

    /// Makes a ``SpanBinding`` per binding, counting how often it is asked for each key; says so
    /// if the injector calls the methods a binding observer stands in for.
    final class SpanObserver: InjectionObserver {
        let log = Lock<[String]>([])
        let asked = Lock<[BindingKey: Int]>([:])
        let spansAlive = Counter()
        let spansMade = Counter()

        var lines: [String] { log.withLock { $0 } }

        func bindingObserver(for key: BindingKey, scope: Scope) -> any BindingObserver {
            asked.withLock { $0[key, default: 0] += 1 }
            return SpanBinding(key: key, observer: self)
        }

        func constructionStarted(_ construction: ObservedConstruction) {
            log.withLock { $0.append("plain start \(construction.key)") }
        }

        func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
            log.withLock { $0.append("plain finish \(construction.key)") }
        }
    }

    final class SpanBinding: BindingObserver {
        let key: BindingKey
        let observer: SpanObserver

        init(key: BindingKey, observer: SpanObserver) {
            self.key = key
            self.observer = observer
        }

        func constructionStarted(
            _ construction: ObservedConstruction,
            parent: (any ConstructionObserver)?
        ) -> any ConstructionObserver {
            Span(binding: self, construction: construction, parent: parent as? Span)
        }
    }

    /// One construction: its key and its parent span's key, logged when it ends.
    final class Span: ConstructionObserver {
        let binding: SpanBinding
        let construction: ObservedConstruction
        let parentKey: String

        init(binding: SpanBinding, construction: ObservedConstruction, parent: Span?) {
            self.binding = binding
            self.construction = construction
            self.parentKey = parent.map { "\($0.binding.key)" } ?? "-"
            binding.observer.spansMade.increment()
            binding.observer.spansAlive.increment()
        }

        deinit { binding.observer.spansAlive.decrement() }

        func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
            let matches = construction == self.construction
            binding.observer.log.withLock {
                $0.append("finished \(binding.key) under \(parentKey)\(matches ? "" : " (another construction)")")
            }
        }

        func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
            binding.observer.log.withLock { $0.append("failed \(binding.key) under \(parentKey)") }
        }
    }

    static let spanModule = TestModule { binder in
        // Closure providers: built on the asynchronous path, the pool inside the repository's.
        binder.bind(Pool.self).to { _ in Pool() }.asSingleton()
        binder.bind(Repository.self).to { r in Repository(pool: try await r.get(Pool.self)) }.asSingleton()
        // Autowired: built without suspending, the ledger inside the journal's construction.
        binder.bind(Ledger.self).to(Ledger.init).inScope(.scoped)
        binder.bind(Journal.self).to(Journal.init).inScope(.scoped)
        binder.bind(Failing.self).to { _ in throw ProviderFailure(attempt: 1) }.inScope(.scoped)
    }

    @Test("a binding observer is asked once per binding; each construction ends at what it answered, named as parent")
    func bindingObserversOnBothPaths() async throws {
        let observer = SpanObserver()
        let injector = try await InjectorActor(modules: [Self.spanModule], observer: observer)
        _ = try await injector.get(Repository.self)
        for _ in 0..<3 {
            try await injector.withScope { _ = try await $0.get(Journal.self) }
        }

        let pool = BindingKey(Pool.self)
        let repository = BindingKey(Repository.self)
        let ledger = BindingKey(Ledger.self)
        let journal = BindingKey(Journal.self)
        #expect(
            observer.lines
                == ["finished \(pool) under \(repository)", "finished \(repository) under -"]
                + Array(repeating: ["finished \(ledger) under \(journal)", "finished \(journal) under -"], count: 3)
                .flatMap { $0 })
        #expect(observer.asked.withLock { $0 } == [pool: 1, repository: 1, ledger: 1, journal: 1])
        #expect(observer.spansMade.value == 8)
        #expect(observer.spansAlive.value == 0, "each construction's observer is released once it has ended")
    }

    @Test("a failure ends at what the binding observer answered, and reaches a combination's observers of failures")
    func bindingObserverFailures() async throws {
        let spans = SpanObserver()
        let others = SpanObserver()
        let failures = RecordingObserver(observesSuccesses: false, observesScopes: false)
        let injector = try await InjectorActor(
            modules: [Self.spanModule], observer: CombinedObserver(spans, failures, others))
        await #expect(throws: ProviderFailure.self) {
            try await injector.withScope { _ = try await $0.get(Failing.self) }
        }
        try await injector.withScope { _ = try await $0.get(Journal.self) }

        let failing = BindingKey(Failing.self)
        let ledger = BindingKey(Ledger.self)
        let journal = BindingKey(Journal.self)
        let expected = [
            "failed \(failing) under -", "finished \(ledger) under \(journal)", "finished \(journal) under -",
        ]
        // Each observer of a combination is handed its own parent.
        #expect(spans.lines == expected)
        #expect(others.lines == expected)
        #expect(failures.lines.first == "failed \(failing) scoped ProviderFailure")
        #expect(spans.spansAlive.value == 0 && others.spansAlive.value == 0)
    }

    @Test("a binding observer answered by a combination is handed the parts its own observers answered")
    func combinedBindingObserverParts() {
        let spans = SpanObserver()
        let combined = CombinedObserver(spans, SpanObserver())
        let key = BindingKey(Journal.self)
        let binding = combined.bindingObserver(for: key, scope: .scoped)
        let construction = ObservedConstruction(
            id: ObservedConstruction.ID(rawValue: 1), key: key, scope: .scoped, parentID: nil, start: .now)
        let parent = binding.constructionStarted(construction, parent: nil)
        let child = binding.constructionStarted(construction, parent: parent)
        child.constructionFinished(construction, duration: .zero)
        // A parent from elsewhere is no part of this combination's: the child has none.
        binding.constructionStarted(
            construction,
            parent: spans.bindingObserver(for: key, scope: .scoped)
                .constructionStarted(construction, parent: nil)
        )
        .constructionFinished(construction, duration: .zero)
        #expect(spans.lines == ["finished \(key) under \(key)", "finished \(key) under -"])
    }

    /// An observer that notes its name in a shared log when a construction fails, through its
    /// binding observer when it observes successes, else through the plain method.
    final class NamedFailureObserver: InjectionObserver, BindingObserver, ConstructionObserver {
        let name: String
        let observesSuccesses: Bool
        let log: Lock<[String]>

        init(_ name: String, observesSuccesses: Bool = true, log: Lock<[String]>) {
            self.name = name
            self.observesSuccesses = observesSuccesses
            self.log = log
        }

        func bindingObserver(for key: BindingKey, scope: Scope) -> any BindingObserver { self }

        func constructionStarted(
            _ construction: ObservedConstruction,
            parent: (any ConstructionObserver)?
        ) -> any ConstructionObserver { self }

        func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {}

        func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
            log.withLock { $0.append(name) }
        }
    }

    @Test("a combination's failure reaches its observers in the order given, those of failures only among them")
    func combinedFailureOrder() async throws {
        let log = Lock<[String]>([])
        // Four observers of successes, so that the parts do not all fit inline.
        let observer = CombinedObserver(
            NamedFailureObserver("a", log: log),
            NamedFailureObserver("failures", observesSuccesses: false, log: log),
            NamedFailureObserver("b", log: log),
            NamedFailureObserver("c", log: log),
            NamedFailureObserver("d", log: log)
        )
        let injector = try await InjectorActor(modules: [Self.spanModule], observer: observer)
        await #expect(throws: ProviderFailure.self) {
            try await injector.withScope { _ = try await $0.get(Failing.self) }
        }
        #expect(log.withLock { $0 } == ["a", "failures", "b", "c", "d"])
    }
}
