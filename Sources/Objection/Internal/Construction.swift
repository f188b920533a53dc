/// One in-flight construction of a cached binding; its identity is a node of the ``WaitGraph``.
final class Construction: Sendable {
    let key: BindingKey

    init(key: BindingKey) {
        self.key = key
    }
}

/// A construction and the task every caller of its key awaits.
struct InFlight<T: Sendable>: Sendable {
    let construction: Construction
    let task: Task<T, any Error>
}
