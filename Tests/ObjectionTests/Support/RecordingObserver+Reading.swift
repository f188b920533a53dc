import ObjectionTesting
import Testing

@testable import Objection

/// Ways for the tests to read a ``RecordingObserver``'s events, drawn from them each time.
extension RecordingObserver {
    /// Each event as a line: `started Engine singleton`, `finished Engine singleton`,
    /// `failed Wheel scoped ProviderFailure`, `disposed Leaky ProviderFailure`,
    /// `get failed Engine missingBinding`, `startup started 3`, `startup finished`, `scope opened`,
    /// `scope ended failed`, `drain ended`. A negative duration adds ` negative`, which no test expects.
    var lines: [String] {
        events.map { event in
            switch event {
            case .constructionStarted(let c): "started \(c.key) \(c.scope)"
            case .constructionFinished(let c, let duration): "finished \(c.key) \(c.scope)\(Self.sign(of: duration))"
            case .constructionFailed(let c, let duration, let error):
                "failed \(c.key) \(c.scope) \(type(of: error))\(Self.sign(of: duration))"
            case .disposed(let key, let duration, let error):
                "disposed \(key)\(error.map { " \(type(of: $0))" } ?? "")\(Self.sign(of: duration))"
            case .resolutionFailed(let key, let error):
                "get failed \(key) \((error as? InjectionError)?.code.description ?? "\(type(of: error))")"
            case .startupStarted(_, let singletons): "startup started \(singletons)"
            case .startupFinished(_, let duration, let error):
                "startup \(error == nil ? "finished" : "failed")\(Self.sign(of: duration))"
            case .scopeOpened: "scope opened"
            case .scopeEnded(let outcome): outcome.error == nil ? "scope ended" : "scope ended failed"
            case .drained(let duration, let error):
                "drain \(error == nil ? "ended" : "timed out")\(Self.sign(of: duration))"
            }
        }
    }

    private static func sign(of duration: Duration) -> String { duration < .zero ? " negative" : "" }

    /// Starts and ends of constructions as they were heard: `+Key`, `-Key`.
    var order: [String] {
        events.compactMap { event in
            switch event {
            case .constructionStarted(let c): "+\(c.key)"
            case .constructionFinished(let c, _), .constructionFailed(let c, _, _): "-\(c.key)"
            default: nil
            }
        }
    }

    /// Every construction started, in order.
    var startedConstructions: [ObservedConstruction] {
        events.compactMap { if case .constructionStarted(let c) = $0 { c } else { nil } }
    }

    /// Every construction ended, in order, and whether it failed.
    var ended: [(construction: ObservedConstruction, failed: Bool)] {
        events.compactMap { event in
            switch event {
            case .constructionFinished(let c, _): (c, false)
            case .constructionFailed(let c, _, _): (c, true)
            default: nil
            }
        }
    }

    /// The startups as lines: `started <id> <singletons>`, `finished <id> ok` or `finished <id> error`.
    var startups: [String] {
        events.compactMap { event in
            switch event {
            case .startupStarted(let id, let singletons): "started \(id.rawValue) \(singletons)"
            case .startupFinished(let id, _, let error): "finished \(id.rawValue) \(error == nil ? "ok" : "error")"
            default: nil
            }
        }
    }

    /// The identities of the startups begun.
    var startupIDs: Set<ObservedConstruction.ID> {
        Set(events.compactMap { if case .startupStarted(let id, _) = $0 { id } else { nil } })
    }

    /// The raw identity of the first startup.
    var startupID: UInt64? {
        events.lazy.compactMap { if case .startupStarted(let id, _) = $0 { id.rawValue } else { nil } }.first
    }

    /// The request scopes as lines: `opened`, `ended`, `ended failed`.
    var scopes: [String] {
        events.compactMap { event in
            switch event {
            case .scopeOpened: "opened"
            case .scopeEnded(let outcome): outcome.error == nil ? "ended" : "ended failed"
            default: nil
            }
        }
    }

    /// The keys disposed without an error, and those whose disposal threw.
    var disposals: (succeeded: [BindingKey], failed: [BindingKey]) {
        var disposals: (succeeded: [BindingKey], failed: [BindingKey]) = ([], [])
        for case .disposed(let key, _, let error) in events {
            if error == nil { disposals.succeeded.append(key) } else { disposals.failed.append(key) }
        }
        return disposals
    }

    /// The construction of `type`, which must have started once and only once.
    func construction<T>(of type: T.Type, sourceLocation: SourceLocation = #_sourceLocation) -> ObservedConstruction? {
        let found = startedConstructions.filter { $0.key == BindingKey(type) }
        #expect(found.count == 1, "\(T.self) started \(found.count) times", sourceLocation: sourceLocation)
        return found.first
    }
}

extension Array where Element == BindingKey {
    /// How many times the key of `type` (named `name`) is in the list.
    func count(of type: Any.Type, named name: String? = nil) -> Int {
        let wanted = BindingKey(type, named: name)
        return filter { $0 == wanted }.count
    }
}
