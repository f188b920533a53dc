import Synchronization

/// What a test's scoped units of work report: one serial number per unit built, one ``Disposal``
/// per unit disposed, with the outcome its scope ended with.
///
/// ```swift
/// let ledger = ScopeLedger()
/// binder.bind(RequestWork.self)
///     .to { [ledger] _ in RequestWork(serial: ledger.nextSerial(), label: "get", ledger: ledger) }
///     .inScope(.scoped)
/// …
/// #expect(ledger.disposed.map(\.serial) == [1])
/// ```
public final class ScopeLedger: Sendable {
    /// One unit of work disposed.
    public struct Disposal: Sendable {
        /// The unit's serial number, from ``ScopeLedger/nextSerial()``.
        public var serial: Int
        /// What the unit was built for: a request's id, an operation's name.
        public var label: String
        /// The error its scope ended with, or `nil` when it succeeded.
        public var error: (any Error)?
    }

    private let state = Mutex<(built: Int, disposed: [Disposal])>((0, []))
    /// Each disposal as it is recorded, for a test that waits for one without a clock.
    public let disposals: AsyncStream<Disposal>
    private let continuation: AsyncStream<Disposal>.Continuation

    /// Creates a ledger with nothing built.
    public init() {
        (disposals, continuation) = AsyncStream.makeStream(of: Disposal.self)
    }

    /// A new serial number, one per unit built, from 1.
    public func nextSerial() -> Int {
        state.withLock { state in
            state.built += 1
            return state.built
        }
    }

    /// Records `disposal`, then tells ``disposals``.
    func record(_ disposal: Disposal) {
        state.withLock { $0.disposed.append(disposal) }
        continuation.yield(disposal)
    }

    /// How many units were built.
    public var built: Int { state.withLock { $0.built } }

    /// The units disposed, in order of disposal.
    public var disposed: [Disposal] { state.withLock { $0.disposed } }
}
