import LinkShortener
import NIOConcurrencyHelpers
import Objection
import Testing

/// The fan-out hands each observer what it asked for, and answers for all of them.
@Suite("Observer fan-out")
struct ObserverFanOutTests {
    /// Records the events it hears, by name.
    final class Recorder: InjectionObserver {
        let observesSuccesses: Bool
        let observesScopes: Bool
        private let heard = NIOLockedValueBox<[String]>([])

        init(successes: Bool, scopes: Bool) {
            self.observesSuccesses = successes
            self.observesScopes = scopes
        }

        var events: [String] { heard.withLockedValue { $0 } }
        private func note(_ event: String) { heard.withLockedValue { $0.append(event) } }

        func constructionStarted(_ construction: ObservedConstruction) { note("started") }
        func constructionFinished(_ construction: ObservedConstruction, duration: Duration) { note("finished") }
        func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
            note("failed")
        }
        func startupStarted(_ id: ObservedConstruction.ID, singletons: Int) { note("startup started") }
        func startupFinished(_ id: ObservedConstruction.ID, duration: Duration, error: (any Error)?) {
            note("startup finished")
        }
        func disposed(_ key: BindingKey, duration: Duration, error: (any Error)?) {
            note(error == nil ? "disposed" : "disposal failed")
        }
        func resolutionFailed(_ key: BindingKey, error: any Error) { note("get failed") }
        func scopeOpened() { note("scope opened") }
        func scopeEnded(_ outcome: ScopeOutcome) { note("scope ended") }
    }

    struct Broken: Error {}

    @Test("Successes reach the observers of successes, scopes those of scopes, failures every one")
    func routing() {
        let failuresOnly = Recorder(successes: false, scopes: false)
        let everything = Recorder(successes: true, scopes: true)
        let fanOut = ObserverFanOut([failuresOnly, everything])
        #expect(fanOut.observesSuccesses && fanOut.observesScopes)
        #expect(!ObserverFanOut([failuresOnly]).observesSuccesses && !ObserverFanOut([failuresOnly]).observesScopes)

        let construction = ObservedConstruction(
            id: ObservedConstruction.ID(rawValue: 2), key: BindingKey(Metrics.self), scope: .singleton,
            parentID: ObservedConstruction.ID(rawValue: 1), start: .now)
        fanOut.startupStarted(ObservedConstruction.ID(rawValue: 1), singletons: 1)
        fanOut.constructionStarted(construction)
        fanOut.constructionFinished(construction, duration: .zero)
        fanOut.constructionFailed(construction, duration: .zero, error: Broken())
        fanOut.startupFinished(ObservedConstruction.ID(rawValue: 1), duration: .zero, error: nil)
        fanOut.scopeOpened()
        fanOut.disposed(BindingKey(Metrics.self), duration: .zero, error: nil)
        fanOut.disposed(BindingKey(Metrics.self), duration: .zero, error: Broken())
        fanOut.scopeEnded(.succeeded)
        fanOut.resolutionFailed(BindingKey(Metrics.self), error: Broken())

        #expect(failuresOnly.events == ["failed", "disposal failed", "get failed"])
        #expect(
            everything.events == [
                "startup started", "started", "finished", "failed", "startup finished", "scope opened", "disposed",
                "disposal failed", "scope ended", "get failed",
            ])
    }
}
