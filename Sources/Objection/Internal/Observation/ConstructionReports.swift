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
/// One entry per construction, in the order they started, each with the index of the one it ran
/// inside: the resolution makes plain nested calls, so that is enough to replay every start and
/// every end in order, without a list of events or a stack. It is on the path of every observed
/// request, so it lives on the stack of the call that steps (`InjectorActor.attempt`), which
/// lends it to the resolvers by pointer; it allocates one buffer, on the first construction: a
/// resolution that builds nothing cached allocates nothing.
///
/// Used by one synchronous call on one task, never shared, never copied.
@usableFromInline
struct ConstructionReports: ~Copyable {
    private enum Ending {
        /// Still running, or handed over to the asynchronous path (see ``abandoned(_:)``), which
        /// reports it: it is not reported here.
        case none
        case finished
        /// Threw this error.
        case failed(any Error)
    }

    private struct Entry {
        let binding: Binding
        /// The construction this one ran inside, if any: an index into ``entries``.
        let enclosing: Int?
        /// When it started and ended, as offsets (see ``ObservationClock``).
        let start: Duration
        var end: Duration
        var ending = Ending.none
        /// Whether it was handed over to the asynchronous path.
        var isAbandoned = false
        /// The identity it is reported with, and its parent's, set as it is delivered.
        var id: ObservedConstruction.ID?
        var parentID: ObservedConstruction.ID?
        /// What its binding observer answered when it was delivered: hears its ending.
        var observer: (any ConstructionObserver)?
    }

    private var entries: [Entry] = []
    /// The construction running now, whose constructions are its children: an index into
    /// ``entries``.
    private var running: Int?

    /// The observed construction (or startup) the resolution runs inside, if any.
    private let parent: ObservedParent?

    /// Notes the constructions of a resolution that runs inside `parent`, if any.
    @usableFromInline init(below parent: ObservedParent?) {
        self.parent = parent
    }

    /// Notes that building `binding` starts now; pass the result to one of the endings.
    mutating func started(_ binding: Binding) -> Int {
        // A request's handful of scoped instances without regrowing; a resolution that builds
        // nothing cached allocates no buffer.
        if entries.isEmpty { entries.reserveCapacity(8) }
        let now = ObservationClock.now()
        entries.append(Entry(binding: binding, enclosing: running, start: now, end: now))
        running = entries.count - 1
        return entries.count - 1
    }

    /// Notes that the construction started at `start` built its value.
    mutating func finished(_ start: Int) {
        end(start, .finished)
    }

    /// Notes that the construction started at `start` threw `error`.
    mutating func failed(_ start: Int, _ error: any Error) {
        end(start, .failed(error))
    }

    /// Notes that the construction started at `start` was handed to the asynchronous path,
    /// which reports it.
    mutating func abandoned(_ start: Int) {
        entries[start].isAbandoned = true
        running = entries[start].enclosing
    }

    mutating private func end(_ start: Int, _ ending: Ending) {
        entries[start].end = ObservationClock.now()
        entries[start].ending = ending
        running = entries[start].enclosing
    }

    /// Tells `observing`'s observer what happened, in order, leaving out the abandoned
    /// constructions.
    ///
    /// Identities are handed out here, as each start is delivered. Before a construction starts,
    /// the ones open that it does not run inside have ended: they are reported, innermost first,
    /// by walking up from the innermost one open. A construction's parent is the nearest
    /// enclosing one reported, else the resolution's ``parent``; an abandoned construction never
    /// ends, and what it built before giving up names the one it ran inside.
    @usableFromInline
    mutating func deliver(to observing: ObserverReference) {
        guard !entries.isEmpty else { return }
        /// The innermost construction started and not yet reported as ended.
        var innermost: Int?
        for index in entries.indices {
            let enclosing = entries[index].enclosing
            while let open = innermost, open != enclosing {
                report(endOf: open)
                innermost = entries[open].enclosing
            }
            innermost = index
            guard !entries[index].isAbandoned else { continue }
            let id = ObservedConstruction.ID.next()
            let parentID: ObservedConstruction.ID?
            let parentObserver: (any ConstructionObserver)?
            if let reported = nearestReported(enclosing) {
                parentID = entries[reported].id
                parentObserver = entries[reported].observer
            } else {
                parentID = parent?.id
                parentObserver = parent?.observer
            }
            entries[index].observer = observing.constructionStarted(
                observed(index, id: id, parentID: parentID), of: entries[index].binding, parent: parentObserver)
            entries[index].id = id
            entries[index].parentID = parentID
        }
        while let open = innermost {
            report(endOf: open)
            innermost = entries[open].enclosing
        }
    }

    /// `index`, or the nearest construction it ran inside, that was reported.
    private func nearestReported(_ index: Int?) -> Int? {
        var candidate = index
        while let current = candidate {
            if entries[current].id != nil { return current }
            candidate = entries[current].enclosing
        }
        return nil
    }

    /// The construction of entry `index`, delivered as `id` below `parentID`, as the observer
    /// hears of it.
    private func observed(
        _ index: Int,
        id: ObservedConstruction.ID,
        parentID: ObservedConstruction.ID?
    ) -> ObservedConstruction {
        ObservedConstruction(
            id: id, subject: entries[index].binding.observedSubject, parentID: parentID,
            startOffset: entries[index].start)
    }

    /// Reports how entry `index` ended, if it was reported as started and has ended.
    private func report(endOf index: Int) {
        guard let id = entries[index].id, let observer = entries[index].observer else { return }
        let duration = entries[index].end - entries[index].start
        switch entries[index].ending {
        case .none: return
        case .finished:
            observer.constructionFinished(
                observed(index, id: id, parentID: entries[index].parentID), duration: duration)
        case .failed(let error):
            observer.constructionFailed(
                observed(index, id: id, parentID: entries[index].parentID), duration: duration, error: error)
        }
    }
}
