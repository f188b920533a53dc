import ObjectionTesting
import Testing

@testable import Objection

/// A kind of cached construction the construction policy applies to (ConstructionPolicy.swift).
enum CacheKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case singleton
    case scoped
    case custom
    case lazy

    var testDescription: String { rawValue }

    /// Whether callers that miss at once share one construction: every kind but a custom scope,
    /// whose cache shares none.
    var sharesConstruction: Bool { self != .custom }

    /// Whether its construction runs on the task of the caller that needed it (a request's, for a
    /// scoped instance), rather than in a task of its own.
    var buildsOnCallersTask: Bool { self == .scoped || self == .custom }
}

/// What the first attempt of a ``PolicyScript`` does once released.
enum FirstAttempt: Sendable {
    case value
    case error
    case cancellation
    /// Shuts down the injector it is resolved in, from within, and then returns its value: a value
    /// that arrives after shutdown took the disposals.
    case shutdownFirst
}

/// A provider whose first attempt enters, waits to be released, then does what it is told; later
/// attempts return at once. Records its attempts, the disposals, and a task-local of the task it
/// runs on.
final class PolicyScript: Sendable {
    final class Value: Sendable {
        let attempt: Int
        init(attempt: Int) { self.attempt = attempt }
    }

    @TaskLocal static var callerTag: String?

    let first: FirstAttempt
    let attempts = Counter()
    let entered = Gate()
    let release = Gate()
    let disposed = Log()
    let seenTags = Lock<[String?]>([])

    init(first: FirstAttempt) {
        self.first = first
        if first == .shutdownFirst { release.open() }
    }

    func build(in injector: InjectorActor) async throws -> Value {
        seenTags.withLock { $0.append(Self.callerTag) }
        let attempt = attempts.increment()
        guard attempt == 1 else { return Value(attempt: attempt) }
        entered.open()
        await release.wait()
        switch first {
        case .value: break
        case .error: throw ProviderFailure(attempt: 1)
        case .cancellation: throw CancellationError()
        case .shutdownFirst: _ = await injector.shutdown(within: nil)
        }
        return Value(attempt: attempt)
    }
}

/// A custom scope's cache that keeps the last instance it is given.
final class KeepLastCache: ScopeCache {
    private let stored = Lock<(any Sendable)?>(nil)

    func cachedInstance<T: Sendable>(as type: T.Type) -> T? { stored.withLock { $0 as? T } }
    func keep<T: Sendable>(_ instance: T) { stored.withLock { $0 = instance } }
}

/// One ``PolicyScript`` bound as `kind`, and how to resolve it: a singleton and a custom-scoped
/// binding from the root, a scoped one from an open request scope, a `Lazy` handle over a
/// transient binding.
struct PolicySubject: Sendable {
    let kind: CacheKind
    let script: PolicyScript
    let root: InjectorActor
    let open: OpenScope?
    let lazy: Lazy<PolicyScript.Value>?
    /// Hears the root's constructions, and so the request scope's.
    let observer = RecordingObserver()
    /// Whether the value was in its cell each time a construction was heard finishing (a
    /// singleton's cell, a scoped slot; nothing for the other kinds).
    let builtWhenHeard = BuiltWhenHeard()

    init(_ kind: CacheKind, first: FirstAttempt) async throws {
        let script = PolicyScript(first: first)
        let scope: Scope =
            switch kind {
            case .singleton: .singleton
            case .scoped: .scoped
            case .custom: .custom("policy") { KeepLastCache() }
            case .lazy: .transient
            }
        let root = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(PolicyScript.Value.self).to { resolver in
                        try await script.build(in: resolver.injector)
                    }.inScope(scope).onDispose { value in script.disposed.append("\(value.attempt)") }
                }
            ],
            observer: CombinedObserver(observer, builtWhenHeard)
        )
        self.kind = kind
        self.script = script
        self.root = root
        self.open = kind == .scoped ? try await root.openScope() : nil
        self.lazy = kind == .lazy ? try await root.get(Lazy<PolicyScript.Value>.self) : nil
        let binding = try #require(
            try root.binding(for: BindingKey(PolicyScript.Value.self), as: PolicyScript.Value.self))
        let request = open?.injector
        // Weak: the injector holds its observer, which would otherwise hold the injector.
        switch kind {
        case .singleton:
            builtWhenHeard.isBuilt.withLock { $0 = { [weak binding] in binding?.lifetime.cell?.isBuilt ?? false } }
        case .scoped:
            builtWhenHeard.isBuilt.withLock {
                $0 = { [weak request, weak binding] in
                    guard let binding else { return false }
                    return request?.slot(for: binding)?.isBuilt ?? false
                }
            }
        case .custom, .lazy: break
        }
    }

    /// The injector the instance belongs to.
    var injector: InjectorActor { open?.injector ?? root }

    func resolve() async throws -> PolicyScript.Value {
        if let lazy { return try await lazy.value }
        return try await injector.get(PolicyScript.Value.self)
    }

    /// What the observer heard of constructions, in order: `started`, `finished` or `failed`,
    /// with the error's type for a failure.
    var heardConstructions: [String] {
        observer.lines.compactMap { line in
            let words = line.split(separator: " ")
            guard let event = words.first, ["started", "finished", "failed"].contains(event) else { return nil }
            return event == "failed" ? "failed \(words.last ?? "")" : String(event)
        }
    }

    /// Ends the request scope, or shuts the root down.
    func shutdown() async throws {
        if let open {
            try await open.end(.succeeded)
        } else {
            _ = await root.shutdown(within: nil)
        }
    }

    /// Waits until a second caller has joined the construction in flight.
    func waitForWaiter() async throws {
        switch kind {
        case .singleton:
            await waitUntil { await root.callersWaiting(for: BindingKey(PolicyScript.Value.self)) >= 2 }
        case .scoped:
            let key = BindingKey(PolicyScript.Value.self)
            let binding = try #require(try injector.binding(for: key, as: PolicyScript.Value.self))
            await waitUntil { injector.slot(for: binding)?.construction?.joins ?? 0 >= 1 }
        case .lazy:
            await waitUntil { (lazy?.callersWaiting ?? 0) >= 2 }
        case .custom:
            Issue.record("a custom scope shares no construction")
        }
    }
}

/// Reads, each time a construction is heard finishing, whether its value is already in its cell
/// (``isBuilt``, set once the binding is known).
final class BuiltWhenHeard: InjectionObserver {
    let isBuilt = Lock<(@Sendable () -> Bool)?>(nil)
    let seen = Lock<[Bool]>([])

    func constructionFinished(_ key: BindingKey, scope: Scope, duration: Duration) {
        guard let isBuilt = isBuilt.withLock({ $0 }) else { return }
        let built = isBuilt()
        seen.withLock { $0.append(built) }
    }
}
