import Synchronization

/// A rebuild of a refreshable binding, running until its provider returns (``RefreshRun``'s
/// refresh-cycle check): a task its provider started and left running inherits it, and must
/// not count it once it has ended.
final class RunningRebuild: Sendable {
    let binding: Binding
    private let running = Atomic<Bool>(true)

    init(_ binding: Binding) {
        self.binding = binding
    }

    var isRunning: Bool { running.load(ordering: .acquiring) }

    func end() {
        running.store(false, ordering: .releasing)
    }
}
