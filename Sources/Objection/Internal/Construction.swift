import Synchronization

/// One in-flight construction of a cached binding; its identity is a node of the ``WaitGraph``.
@usableFromInline
final class Construction: Sendable {
    let key: BindingKey
    private let joinCount = Atomic<Int>(0)

    init(key: BindingKey) {
        self.key = key
    }

    /// How many callers have joined this construction, its starter included.
    var joins: Int { joinCount.load(ordering: .relaxed) }

    func recordJoin() {
        joinCount.add(1, ordering: .relaxed)
    }
}

/// A construction, the task running it, and the outcome every caller of its key awaits (a
/// caller that is cancelled leaves without waiting for the task).
struct InFlight<T: Sendable>: InFlightConstruction {
    let construction: Construction
    let task: Task<T, any Error>
    let outcome: SharedOutcome<T>
}

/// The untyped face of ``InFlight``.
protocol InFlightConstruction: Sendable {
    var construction: Construction { get }
    /// Waits until the construction has finished, whatever its outcome.
    func finish() async
}

extension InFlight {
    func finish() async {
        _ = await task.result
    }
}
