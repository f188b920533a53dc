import Synchronization

/// The type names of the services an ``InjectorService`` runs, known once its `run()` has resolved
/// them; shared by the copies of the service so that its description can show them.
final class ResolvedServiceNames: Sendable {
    private let names = Mutex<[String]?>(nil)

    /// The names, or `nil` before the services are resolved.
    var value: [String]? {
        names.withLock { $0 }
    }

    func record(_ newNames: [String]) {
        names.withLock { $0 = newNames }
    }
}
