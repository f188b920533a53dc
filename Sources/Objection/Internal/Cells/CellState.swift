/// The state of one cached instance — a singleton, a request-scoped instance, a `Lazy` — as a
/// plain state machine: empty, being built by one claimant, or built.
///
/// Every transition is a mutating method that returns what the caller must do once it has
/// released the lock guarding the state (resume waiters, release a value), so no continuation is
/// resumed and no deinit runs while a lock is held. The machine knows nothing of tasks or
/// providers; ``CacheCell`` and ``RequestState`` guard it, and `CellStateTests` drives it without
/// concurrency.
struct CellState: Sendable {
    /// A built value, as one object (``CellValue``).
    typealias Value = any AnyObject & Sendable

    private enum Phase {
        case empty
        /// Being built by a claimant. The outcome is made when the first waiter arrives, so that
        /// a construction nobody waits for allocates nothing for waiters; it carries the value,
        /// or `nil` when the claimant gave up without one. The construction is `nil` while the
        /// claimant builds in place without suspending (``claimInPlace(as:)``) and nobody has needed
        /// to name it: it is made when a waiter arrives, so the synchronous path, on which
        /// nobody usually waits, allocates nothing per build.
        case building(Construction?, SharedOutcome<Value?>?)
        case built(Value)
    }

    /// The cell's one answer to a caller that wants its value: what to do now. `Build` is what
    /// a claimant that is to build gets, which depends on how it builds (see the claims below);
    /// `Never` for a caller that only joins.
    enum Claim<Build> {
        /// The value is built.
        case built(Value)
        /// The caller builds the value, and ends the construction with ``end(_:storing:)`` or
        /// ``reset()``.
        case build(Build)
        /// Someone else is building the value: wait for the outcome.
        case wait(Construction, SharedOutcome<Value?>)
    }

    private var phase = Phase.empty

    init() {}

    /// The built value, if any.
    var value: Value? {
        if case .built(let value) = phase { return value }
        return nil
    }

    /// The construction in flight, if it has been named (see ``Phase/building(_:_:)``).
    var construction: Construction? {
        if case .building(let construction, _) = phase { return construction }
        return nil
    }

    /// Whether a construction is in flight.
    var isBuilding: Bool {
        if case .building = phase { return true }
        return false
    }

    /// Claims the construction for a caller that builds the value in place, without suspending,
    /// or tells it to use the value or to wait. A claim to build allocates nothing: a caller that
    /// arrives meanwhile names the construction and makes its outcome.
    mutating func claimInPlace(as key: BindingKey) -> Claim<Void> {
        claim(as: key) { (.building(nil, nil), ()) }
    }

    /// Claims the construction for a caller that builds the value in its own task, suspending,
    /// or tells it to use the value or to wait. A claim to build names the construction: the node
    /// its waits are recorded under in the ``WaitGraph``.
    mutating func claim(as key: BindingKey) -> Claim<Construction> {
        claim(as: key) {
            let construction = Construction(key: key)
            return (.building(construction, nil), construction)
        }
    }

    /// Claims the construction for a caller that starts it in a task of its own and then waits
    /// for it like any other caller, or tells it to use the value or to wait. A claim to build
    /// names the construction and makes its outcome.
    mutating func claimToStart(as key: BindingKey) -> Claim<(Construction, SharedOutcome<Value?>)> {
        claim(as: key) {
            let construction = Construction(key: key)
            let outcome = SharedOutcome<Value?>()
            return (.building(construction, outcome), (construction, outcome))
        }
    }

    /// Reads the value, or joins the construction in flight — named and given an outcome as a
    /// waiter's claim does, and the join counted — in one transition: for a caller outside any
    /// construction, which can close no cycle. `nil` when the cell is empty.
    mutating func join(as key: BindingKey) -> Claim<Never>? {
        switch phase {
        case .empty:
            return nil
        case .built(let value):
            return .built(value)
        case .building(let named, let existing):
            let (construction, outcome) = joinInFlight(named, existing, as: key)
            construction.recordJoin()
            return .wait(construction, outcome)
        }
    }

    /// The one claim: the value, the construction in flight, or a new construction begun as
    /// `begin` says.
    private mutating func claim<Build>(as key: BindingKey, _ begin: () -> (Phase, Build)) -> Claim<Build> {
        switch phase {
        case .built(let value):
            return .built(value)
        case .building(let named, let existing):
            let (construction, outcome) = joinInFlight(named, existing, as: key)
            return .wait(construction, outcome)
        case .empty:
            let (next, build) = begin()
            phase = next
            return .build(build)
        }
    }

    /// The construction in flight and its outcome, for a waiter: the first waiter names a
    /// construction built in place and makes the outcome.
    private mutating func joinInFlight(
        _ named: Construction?,
        _ existing: SharedOutcome<Value?>?,
        as key: BindingKey
    ) -> (Construction, SharedOutcome<Value?>) {
        if let named, let existing { return (named, existing) }
        let construction = named ?? Construction(key: key)
        let outcome = existing ?? SharedOutcome()
        phase = .building(construction, outcome)
        return (construction, outcome)
    }

    /// The outcome of the construction in flight, to wait for until it ends; `nil` when none is,
    /// or when it is one of `excluded`.
    mutating func outcomeInFlight(excluding excluded: [Construction] = []) -> SharedOutcome<Value?>? {
        guard case .building(let construction, let existing) = phase else { return nil }
        if let construction, excluded.contains(where: { $0 === construction }) { return nil }
        if let existing { return existing }
        let outcome = SharedOutcome<Value?>()
        phase = .building(construction, outcome)
        return outcome
    }

    /// Forgets the claimant's construction — failed, or given up — storing nothing, so that the
    /// next caller builds again; returns the outcome whose waiters must be told.
    mutating func reset() -> SharedOutcome<Value?>? {
        end(leaving: .empty)
    }

    /// Ends `construction` with `value` (`nil`: stores nothing), unless it is no longer the one
    /// in flight — it was given up meanwhile. A `nil` construction is the claimant's build in
    /// place, which nobody else ends, so no identity is checked. Returns whether it was current,
    /// and the outcome whose waiters must be told.
    mutating func end(
        _ construction: Construction?,
        storing value: Value?
    ) -> (wasCurrent: Bool, outcome: SharedOutcome<Value?>?) {
        guard case .building(let current, _) = phase, construction == nil || current === construction else {
            return (false, nil)
        }
        return (true, end(leaving: value.map { .built($0) } ?? .empty))
    }

    private mutating func end(leaving next: Phase) -> SharedOutcome<Value?>? {
        defer { phase = next }
        if case .building(_, let outcome) = phase { return outcome }
        return nil
    }

    /// Empties the cell of a scope that has ended, outside any lock: releases its value, and
    /// tells the waiters of a construction still in flight that it was given up.
    mutating func release() {
        reset()?.finish(.success(nil))
    }

    /// Empties a built cell; returns the value, to be released after the lock.
    mutating func clear() -> Value? {
        guard case .built(let value) = phase else { return nil }
        phase = .empty
        return value
    }
}

/// How a cell holds a value of any type as one object, so that cells of every type share one
/// layout: an instance of a class as itself, anything else in a ``Built`` box.
///
/// Reading a value back is on the path of every cached `get`, often from code that is not
/// specialised for `T` (the recipes of autowired parameter packs). Holding an object as itself
/// spares that code the box, and the box's generic metadata, which the runtime would otherwise
/// look up on every read.
@usableFromInline enum CellValue {
    /// `value` as one object.
    @inlinable static func wrap<T: Sendable>(_ value: T) -> any AnyObject & Sendable {
        if T.self is AnyClass { return unsafeBitCast(value, to: (any AnyObject & Sendable).self) }
        return Built(value)
    }

    /// The value `wrap` made `object` from.
    ///
    /// A cell belongs to one binding and only ever holds values of that binding's type, and every
    /// caller has checked the binding's type to be `T` first (``Binding/produces(_:)``). That is
    /// the proof the unchecked conversions rely on, and the only place they are made.
    @inlinable static func unwrap<T: Sendable>(_ object: any AnyObject & Sendable, as type: T.Type) -> T {
        if T.self is AnyClass { return unsafeBitCast(object, to: T.self) }
        return unsafeDowncast(object, to: Built<T>.self).value
    }
}

/// A value that is not an instance of a class, boxed for a cell (see ``CellValue``).
@usableFromInline final class Built<T: Sendable>: Sendable {
    @usableFromInline let value: T

    @usableFromInline init(_ value: T) {
        self.value = value
    }
}
