import LinkShortener
import Objection

/// A ``LinkStore`` whose every operation throws an error Hummingbird does not know, so that the
/// routes answer `500`.
struct FailingLinkStore: LinkStore {
    struct StoreDown: Error {}

    func insert(_ link: Link) async throws -> Bool { throw StoreDown() }
    func find(code: String) async throws -> Link? { throw StoreDown() }
    func count() async -> Int { 0 }
}

/// Overrides the store binding of ``AppModule`` (a later module wins) with a ``FailingLinkStore``.
struct FailingStoreModule: Module {
    func configure(_ binder: Binder) {
        binder.bind((any LinkStore).self).toInstance(FailingLinkStore())
    }
}
