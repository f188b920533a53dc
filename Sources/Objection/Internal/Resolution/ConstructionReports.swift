/// The constructions one synchronous resolution made, held back from the ``InjectionObserver``
/// until the resolution ends, so that the observer hears each construction once and whole.
///
/// A synchronous resolution may give up half-way (``SynchronousStop/mustSuspend``) and
/// leave the rest to the asynchronous path, which then builds the abandoned instances again and
/// reports them itself. Reporting their start at once would tell the observer twice that they
/// started, once without an end; holding the reports back lets ``deliver(to:)`` drop those. No
/// one can tell the difference otherwise: the resolution never suspends, so the observer hears
/// the events on the same task, in the same order, with durations measured when they happened.
///
/// Used by one synchronous call on one task, never shared.
@usableFromInline
final class ConstructionReports {
    private enum Event {
        /// A construction started; `isAbandoned` once it was handed over.
        case started(isAbandoned: Bool)
        /// The construction that started at `start`, an index into the events, built its value.
        case finished(start: Int)
        /// The construction that started at `start` threw the error at `error` in ``errors``.
        case failed(start: Int, error: Int)
    }

    private struct Entry {
        var event: Event
        let binding: Binding
        let at: ContinuousClock.Instant
    }

    // One task, one synchronous call: no overlapping access to check at run time.
    /// What happened, in order, each with the binding it concerns and when.
    @exclusivity(unchecked) private var events: [Entry] = []
    /// The errors of failed constructions, kept apart so that an event copies no existential.
    @exclusivity(unchecked) private var errors: [any Error] = []

    /// The observed construction (or startup) the resolution runs inside, if any.
    private let parent: ObservedConstruction.ID?

    /// Notes the constructions of a resolution that runs inside `parent`, if any.
    @usableFromInline init(below parent: ObservedConstruction.ID?) {
        self.parent = parent
    }

    /// Notes that building `binding` starts now; pass the result to one of the endings.
    func started(_ binding: Binding) -> Int {
        // A request's handful of scoped instances, started and ended, without regrowing; a
        // resolution that builds nothing cached allocates no buffer.
        if events.isEmpty { events.reserveCapacity(8) }
        events.append(Entry(event: .started(isAbandoned: false), binding: binding, at: .now))
        return events.count - 1
    }

    /// Notes that the construction started at `start` built its value.
    func finished(_ start: Int) {
        events.append(Entry(event: .finished(start: start), binding: events[start].binding, at: .now))
    }

    /// Notes that the construction started at `start` threw `error`.
    func failed(_ start: Int, _ error: any Error) {
        errors.append(error)
        events.append(
            Entry(event: .failed(start: start, error: errors.count - 1), binding: events[start].binding, at: .now))
    }

    /// Notes that the construction started at `start` was handed to the asynchronous path,
    /// which reports it.
    func abandoned(_ start: Int) {
        events[start].event = .started(isAbandoned: true)
    }

    /// Tells `observer` what happened, in order, leaving out the abandoned constructions.
    ///
    /// Identities are handed out here, as each start is delivered. The resolution made plain
    /// nested calls, so the constructions open at a start are its ancestors, innermost last: a
    /// construction's parent is the nearest one open, else the resolution's ``parent``. An
    /// abandoned construction never ends, and what it built before giving up names its parent.
    @usableFromInline
    func deliver(to observer: any InjectionObserver) {
        // The constructions started and not yet ended: the event's index and what was reported.
        var open: [(start: Int, construction: ObservedConstruction?)] = []
        var nearest: ObservedConstruction.ID? {
            open.last(where: { $0.construction != nil })?.construction?.id ?? parent
        }
        for index in events.indices {
            let binding = events[index].binding
            switch events[index].event {
            case .started(let isAbandoned):
                guard !isAbandoned else {
                    open.append((index, nil))
                    continue
                }
                let construction = ObservedConstruction(
                    id: .next(), key: binding.key, scope: binding.scope, parentID: nearest, start: events[index].at)
                open.append((index, construction))
                observer.constructionStarted(construction)
            case .finished(let start):
                guard let construction = close(start, in: &open) else { continue }
                observer.constructionFinished(construction, duration: events[index].at - events[start].at)
            case .failed(let start, let error):
                guard let construction = close(start, in: &open) else { continue }
                observer.constructionFailed(
                    construction, duration: events[index].at - events[start].at, error: errors[error])
            }
        }
    }

    /// Removes the construction started at event `start` from `open`, with what opened after it,
    /// and returns it.
    private func close(
        _ start: Int,
        in open: inout [(start: Int, construction: ObservedConstruction?)]
    ) -> ObservedConstruction? {
        guard let position = open.lastIndex(where: { $0.start == start }) else { return nil }
        let construction = open[position].construction
        open.removeSubrange(position...)
        return construction
    }
}
