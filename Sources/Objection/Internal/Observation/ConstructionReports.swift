/// The constructions one synchronous resolution made, held back from an ``InjectionObserver`` of
/// successes until the resolution ends, so that the observer hears each construction once and
/// whole. An observer of failures only hears no starts, so nothing is held back for it: a failure
/// is told at once.
///
/// A synchronous resolution may give up half-way (``SynchronousStop/mustSuspend``) and
/// leave the rest to the asynchronous path, which then builds the abandoned instances again and
/// reports them itself. Reporting their start at once would tell the observer twice that they
/// started, once without an end; holding the reports back lets ``deliver()`` drop those. No
/// one can tell the difference otherwise: the resolution never suspends, so the observer hears
/// the events on the same task, in the same order, with durations measured when they happened.
/// They reach it as every construction does, through a ``ConstructionObservation`` made as each
/// is delivered.
///
/// For an observer of successes, one entry per construction, in the order they started, each
/// with the index of the one it ran inside: the resolution makes plain nested calls, so that is
/// enough to replay every start and every end in order, without a list of events or a stack.
/// It is on the path of every observed request, so it lives on the stack of the call that steps
/// (`ResolutionDriver.reportingStep`, called by `ResolutionDriver.attempt`), which lends it to the resolvers by pointer; it allocates one
/// buffer, on the first construction: a resolution that builds nothing cached allocates nothing.
///
/// Used by one synchronous call on one task, never shared, never copied.
@usableFromInline struct ConstructionReports: ~Copyable {
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
        /// The construction as the observer heard it start, once it is delivered.
        var observation: ConstructionObservation?
    }

    /// A construction noted as started: pass it to one of the endings.
    struct Started {
        /// Its entry; `nil` for an observer of failures only, for which none is kept.
        fileprivate let entry: Int?
        fileprivate let start: Duration
    }

    private var entries: [Entry] = []
    /// The construction running now, whose constructions are its children: an index into
    /// ``entries``.
    private var running: Int?

    /// The observed construction (or startup) the resolution runs inside, if any.
    private let parent: ObservedParent?
    /// What hears the constructions.
    private let observing: ObserverReference

    /// Notes for `observing` the constructions of a resolution that runs inside `parent`, if any.
    @usableFromInline init(below parent: ObservedParent?, to observing: ObserverReference) {
        self.parent = parent
        self.observing = observing
    }

    /// Notes that building `binding` starts now; pass the result to one of the endings.
    ///
    /// For an observer of failures only, nothing is kept: it hears nothing of a start, so there
    /// is nothing to take back if the construction gives way.
    mutating func started(_ binding: Binding) -> Started {
        let now = ObservationClock.now()
        guard observing.observesSuccesses else { return Started(entry: nil, start: now) }
        // A request's handful of scoped instances without regrowing; a resolution that builds
        // nothing cached allocates no buffer.
        if entries.isEmpty { entries.reserveCapacity(8) }
        entries.append(Entry(binding: binding, enclosing: running, start: now, end: now))
        running = entries.count - 1
        return Started(entry: running, start: now)
    }

    /// Notes that the construction `started` built its value.
    mutating func finished(_ started: Started) {
        guard let entry = started.entry else { return }
        end(entry, .finished)
    }

    /// Notes that the construction `started`, of `binding`, threw `error`. An observer of
    /// failures only is told at once.
    mutating func failed(_ started: Started, of binding: Binding, _ error: any Error) {
        guard let entry = started.entry else {
            ConstructionObservation(
                of: binding, parentID: nil, parentObserver: nil, startOffset: started.start, to: observing
            )
            .failed(error, to: observing)
            return
        }
        end(entry, .failed(error))
    }

    /// Notes that the construction `started` was handed to the asynchronous path, which reports
    /// it.
    mutating func abandoned(_ started: Started) {
        guard let entry = started.entry else { return }
        entries[entry].isAbandoned = true
        running = entries[entry].enclosing
    }

    mutating private func end(_ entry: Int, _ ending: Ending) {
        entries[entry].end = ObservationClock.now()
        entries[entry].ending = ending
        running = entries[entry].enclosing
    }

    /// Tells the observer what happened, in order, leaving out the abandoned constructions.
    ///
    /// Each start is delivered in turn; identities are handed out then. Before a construction
    /// starts, the ones open that it does not run inside have ended: their endings are
    /// delivered, innermost first, by walking up from the innermost one open. A construction's parent is the nearest
    /// enclosing one delivered, else the resolution's ``parent``; an abandoned construction never
    /// ends, and what it built before giving up names the one it ran inside.
    @usableFromInline mutating func deliver() {
        guard !entries.isEmpty else { return }
        /// The innermost construction started and whose ending is not delivered yet.
        var innermost: Int?
        for index in entries.indices {
            let enclosing = entries[index].enclosing
            while let open = innermost, open != enclosing {
                deliverEnd(of: open)
                innermost = entries[open].enclosing
            }
            innermost = index
            guard !entries[index].isAbandoned else { continue }
            let parentID: ObservedConstruction.ID?
            let parentObserver: (any ConstructionObserver)?
            if let delivered = nearestDelivered(enclosing) {
                parentID = entries[delivered].observation?.construction.id
                parentObserver = entries[delivered].observation?.observer
            } else {
                (parentID, parentObserver) = (parent?.id, parent?.observer)
            }
            entries[index].observation = ConstructionObservation(
                of: entries[index].binding, parentID: parentID, parentObserver: parentObserver,
                startOffset: entries[index].start, to: observing)
        }
        while let open = innermost {
            deliverEnd(of: open)
            innermost = entries[open].enclosing
        }
    }

    /// `index`, or the nearest construction it ran inside, that was delivered.
    private func nearestDelivered(_ index: Int?) -> Int? {
        var candidate = index
        while let current = candidate {
            if entries[current].observation != nil { return current }
            candidate = entries[current].enclosing
        }
        return nil
    }

    /// Tells how entry `index` ended, if it was delivered and has ended.
    private func deliverEnd(of index: Int) {
        switch entries[index].ending {
        case .none: return
        case .finished: entries[index].observation?.finished(at: entries[index].end)
        case .failed(let error): entries[index].observation?.failed(error, to: observing, at: entries[index].end)
        }
    }
}
