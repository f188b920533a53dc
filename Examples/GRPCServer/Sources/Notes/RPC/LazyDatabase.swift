import Objection
import Synchronization

/// ``NotesDatabase``, resolved from the root injector on the first RPC of the hand-wired twin that
/// needs it, and kept.
///
/// Not when the server is made: that is before the service group runs, and ``NotesDatabase`` is
/// built only once the injector's service runs the database client. An RPC that arrives while
/// the injector is still starting waits for it, as on the scoped service.
final class LazyDatabase: Sendable {
    private let injector: InjectorActor
    private let resolved = Mutex<NotesDatabase?>(nil)

    init(injector: InjectorActor) {
        self.injector = injector
    }

    /// The database; the first calls resolve it (concurrent first calls get the same singleton).
    func get() async throws -> NotesDatabase {
        if let database = resolved.withLock({ $0 }) { return database }
        let database = try await injector.get(NotesDatabase.self)
        resolved.withLock { $0 = database }
        return database
    }
}
