/// The construction observers a ``CombinedObserver``'s parts answered for one construction, in
/// the parts' order: the first two held inline, so that a combination of two observers — the
/// usual tracing and metrics — allocates no array for each construction.
struct ConstructionObserverList: Sendable {
    private let first: (any ConstructionObserver)?
    private let second: (any ConstructionObserver)?
    private let others: [any ConstructionObserver]
    /// How many there are.
    let count: Int

    /// The list of `count` observers `make` answers for the indices 0 up to `count`, in order.
    init(count: Int, _ make: (Int) -> any ConstructionObserver) {
        self.count = max(count, 0)
        first = self.count > 0 ? make(0) : nil
        second = self.count > 1 ? make(1) : nil
        others = self.count > 2 ? (2..<self.count).map(make) : []
    }

    /// The observer at `index`, or `nil` past the end.
    func observer(at index: Int) -> (any ConstructionObserver)? {
        switch index {
        case 0: first
        case 1: second
        case 2..<count: others[index - 2]
        default: nil
        }
    }

    /// Calls `body` with each observer, in order.
    func forEach(_ body: (any ConstructionObserver) -> Void) {
        if let first { body(first) }
        if let second { body(second) }
        for observer in others { body(observer) }
    }
}
