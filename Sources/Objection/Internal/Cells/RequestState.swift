/// What a request scope has that other injectors do not: the cells of its scoped instances and
/// the values its opener bound (``ScopeValues``).
@usableFromInline
final class RequestState: Sendable {
    let storage: ScopeStorage
    let values: ScopeValues

    init(storage: ScopeStorage, values: ScopeValues) {
        self.storage = storage
        self.values = values
    }
}
