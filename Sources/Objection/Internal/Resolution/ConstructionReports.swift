/// The constructions one synchronous resolution made, held back from the ``InjectionObserver``
/// until the resolution ends, so that the observer hears each construction once and whole.
///
/// A synchronous resolution may give up half-way (``SynchronousResolutionUnavailable``) and
/// leave the rest to the asynchronous path, which then builds the abandoned instances again and
/// reports them itself. Reporting their start at once would tell the observer twice that they
/// started, once without an end; holding the reports back lets ``deliver(to:)`` drop those. No
/// one can tell the difference otherwise: the resolution never suspends, so the observer hears
/// the events on the same task, in the same order, with durations measured when they happened.
///
/// Used by one synchronous call on one task, never shared.
@usableFromInline
final class ConstructionReports {
    private enum Ending {
        case finished(ContinuousClock.Instant)
        case failed(ContinuousClock.Instant, any Error)
        case abandoned
    }

    private struct Construction {
        let binding: Binding
        let start: ContinuousClock.Instant
        var ending: Ending?
    }

    private var constructions: [Construction] = []
    /// The events in the order they happened: each construction's index, once when it started
    /// and once when it ended.
    private var events: [(construction: Int, isEnd: Bool)] = []

    @usableFromInline init() {}

    /// Notes that building `binding` starts now; pass the result to one of the endings.
    func started(_ binding: Binding) -> Int {
        constructions.append(Construction(binding: binding, start: .now))
        events.append((constructions.count - 1, false))
        return constructions.count - 1
    }

    /// Notes that construction `index` built its value.
    func finished(_ index: Int) { end(index, .finished(.now)) }

    /// Notes that construction `index` threw `error`.
    func failed(_ index: Int, _ error: any Error) { end(index, .failed(.now, error)) }

    /// Notes that construction `index` was handed to the asynchronous path, which reports it.
    func abandoned(_ index: Int) { constructions[index].ending = .abandoned }

    private func end(_ index: Int, _ ending: Ending) {
        constructions[index].ending = ending
        events.append((index, true))
    }

    /// Tells `observer` what happened, in order, leaving out the abandoned constructions.
    @usableFromInline
    func deliver(to observer: any InjectionObserver) {
        for event in events {
            let construction = constructions[event.construction]
            let key = construction.binding.key
            let scope = construction.binding.scope
            switch (event.isEnd, construction.ending) {
            case (_, .abandoned?), (_, nil):
                continue
            case (false, _):
                observer.constructionStarted(key, scope: scope)
            case (true, .finished(let end)?):
                observer.constructionFinished(key, scope: scope, duration: end - construction.start)
            case (true, .failed(let end, let error)?):
                observer.constructionFailed(key, scope: scope, duration: end - construction.start, error: error)
            }
        }
    }
}
