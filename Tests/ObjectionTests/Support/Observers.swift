import ObjectionTesting
import Testing

@testable import Objection

// The observer doubles of the tests. A test that only reads what was heard uses the public
// ``RecordingObserver``; these are for what it cannot do.

/// Only the protocol's defaults: compiles, asks for successes and no scopes, and ignores everything.
struct SilentObserver: InjectionObserver {}

/// Records every event, as a ``RecordingObserver`` in ``recorded``, and checks, as they arrive,
/// what the observer contract promises: each construction starts once, ends once (finished or
/// failed) after it started, names as parent a construction or startup heard of before it, and
/// never reports a negative duration.
final class StrictObserver: InjectionObserver {
    private struct Checks {
        var started: [ObservedConstruction.ID: ObservedConstruction] = [:]
        var ended: [ObservedConstruction.ID: String] = [:]
        var startups: Set<ObservedConstruction.ID> = []
        var problems: [String] = []
    }

    private let checks = Lock(Checks())
    /// Everything heard, in order.
    let recorded: RecordingObserver
    /// Called (outside any lock) from every callback with the event's name and key, to misbehave.
    let hook: (@Sendable (String, BindingKey?) -> Void)?
    /// Whether it is the injector's observer itself, not one inside a ``CombinedObserver``: a
    /// failure-only observer inside a combination hears parents (documented).
    let standalone: Bool

    init(
        successes: Bool = true, scopes: Bool = true, standalone: Bool = true,
        hook: (@Sendable (String, BindingKey?) -> Void)? = nil
    ) {
        self.recorded = RecordingObserver(observesSuccesses: successes, observesScopes: scopes)
        self.standalone = standalone
        self.hook = hook
    }

    var observesSuccesses: Bool { recorded.observesSuccesses }
    var observesScopes: Bool { recorded.observesScopes }
    var successes: Bool { recorded.observesSuccesses }

    /// Every construction started, by identity.
    var started: [ObservedConstruction.ID: ObservedConstruction] {
        Dictionary(recorded.startedConstructions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func constructionStarted(_ construction: ObservedConstruction) {
        recorded.constructionStarted(construction)
        checks.withLock { s in
            if !successes { s.problems.append("a failure-only observer heard a start of \(construction)") }
            if s.started[construction.id] != nil { s.problems.append("\(construction) started twice") }
            if let parent = construction.parentID, s.started[parent] == nil, !s.startups.contains(parent) {
                s.problems.append("\(construction) names an unknown parent \(parent)")
            }
            s.started[construction.id] = construction
        }
        hook?("started", construction.key)
    }

    func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
        recorded.constructionFinished(construction, duration: duration)
        checks.withLock { s in
            if !successes { s.problems.append("a failure-only observer heard a finish of \(construction)") }
            if s.started[construction.id] == nil { s.problems.append("\(construction) finished without a start") }
            end(construction, as: "finished", duration: duration, in: &s)
        }
        hook?("finished", construction.key)
    }

    func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
        recorded.constructionFailed(construction, duration: duration, error: error)
        checks.withLock { s in
            if successes, s.started[construction.id] == nil {
                s.problems.append("\(construction) failed without a start")
            }
            if !successes, standalone, construction.parentID != nil {
                s.problems.append("a failure-only observer got a parent for \(construction)")
            }
            end(construction, as: "failed", duration: duration, in: &s)
        }
        hook?("failed", construction.key)
    }

    private func end(_ construction: ObservedConstruction, as how: String, duration: Duration, in s: inout Checks) {
        if let previous = s.ended[construction.id] { s.problems.append("\(construction) \(how) after it \(previous)") }
        if duration < .zero { s.problems.append("\(construction) negative duration") }
        s.ended[construction.id] = how
    }

    func startupStarted(_ id: ObservedConstruction.ID, singletons: Int) {
        recorded.startupStarted(id, singletons: singletons)
        checks.withLock { s in
            if s.startups.contains(id) || s.started[id] != nil { s.problems.append("startup id \(id) reused") }
            s.startups.insert(id)
        }
        hook?("startupStarted", nil)
    }

    func startupFinished(_ id: ObservedConstruction.ID, duration: Duration, error: (any Error)?) {
        recorded.startupFinished(id, duration: duration, error: error)
        checks.withLock { s in
            if !s.startups.contains(id) { s.problems.append("startup \(id) finished without a start") }
        }
        hook?("startupFinished", nil)
    }

    func disposed(_ key: BindingKey, duration: Duration, error: (any Error)?) {
        recorded.disposed(key, duration: duration, error: error)
        if error == nil, !successes {
            checks.withLock { $0.problems.append("a failure-only observer heard a disposal of \(key)") }
        }
        hook?("disposed", key)
    }

    func resolutionFailed(_ key: BindingKey, error: any Error) {
        recorded.resolutionFailed(key, error: error)
        hook?("getFailed", key)
    }

    func scopeOpened() {
        recorded.scopeOpened()
        hook?("scopeOpened", nil)
    }

    func scopeEnded(_ outcome: ScopeOutcome) {
        recorded.scopeEnded(outcome)
        hook?("scopeEnded", nil)
    }

    /// Problems plus every construction still open: once the work is done, none may be.
    func finalProblems() -> [String] {
        checks.withLock { s in
            var all = s.problems
            if successes {
                for (id, construction) in s.started where s.ended[id] == nil {
                    all.append("\(construction) never ended")
                }
            }
            return all
        }
    }
}

/// How a test observes its injector.
enum ObserverKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case none, successes, failuresOnly, combinedMixed, combinedFailuresOnly

    var testDescription: String { rawValue }

    /// The observer to pass, and the strict observers inside it to check afterwards.
    func make(hook: (@Sendable (String, BindingKey?) -> Void)? = nil) -> (
        observer: (any InjectionObserver)?, strict: [StrictObserver]
    ) {
        switch self {
        case .none: return (nil, [])
        case .successes:
            let o = StrictObserver(hook: hook)
            return (o, [o])
        case .failuresOnly:
            let o = StrictObserver(successes: false, scopes: false, hook: hook)
            return (o, [o])
        case .combinedMixed:
            let failures = StrictObserver(successes: false, scopes: false, standalone: false, hook: hook)
            let all = StrictObserver(successes: true, scopes: true)
            return (CombinedObserver(failures, all, SilentObserver()), [failures, all])
        case .combinedFailuresOnly:
            let a = StrictObserver(successes: false, scopes: false, standalone: false, hook: hook)
            let b = StrictObserver(successes: false, scopes: true, standalone: false)
            return (CombinedObserver(a, CombinedObserver(b)), [a, b])
        }
    }
}

/// Counts how often the injector asks what it wants, answers `true` to the first question of each
/// kind and `later` to the others, and records the constructions started and scopes opened.
final class QuestionedObserver: InjectionObserver {
    /// How many times each question was asked.
    let asked = Lock((successes: 0, scopes: 0))
    /// The constructions started and the scopes opened.
    let recorded = RecordingObserver()
    let later: Bool

    init(later: Bool) { self.later = later }

    var observesSuccesses: Bool {
        asked.withLock {
            $0.successes += 1
            return $0.successes == 1 || later
        }
    }

    var observesScopes: Bool {
        asked.withLock {
            $0.scopes += 1
            return $0.scopes == 1 || later
        }
    }

    func constructionStarted(_ construction: ObservedConstruction) { recorded.constructionStarted(construction) }
    func scopeOpened() { recorded.scopeOpened() }
}
