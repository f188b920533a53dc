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
