/// One linked entry of a ``BindingTable``: a key, its scope and its producer, with every declared
/// dependency already turned into a table index.
@usableFromInline
final class Binding: Sendable {
    @usableFromInline let key: BindingKey
    @usableFromInline let scope: Scope
    let isEager: Bool
    let location: InjectionError.SourceLocation
    @usableFromInline let producer: any AnyProducer
    /// The declared dependency keys, in parameter order.
    @usableFromInline let dependencies: [BindingKey]
    /// For each dependency, its index in the table, or `nil` when nothing binds it.
    @usableFromInline let links: [Int?]
    /// This binding's index in its table; also the index of its singleton cell.
    @usableFromInline let index: Int
    /// Whether this transient binding, and everything below it, can be built by plain function
    /// calls once the cached bindings it reaches (``frontier``) are built: its recipe is
    /// synchronous, every dependency is bound, there is no cycle and the depth is small.
    @usableFromInline let isSynchronous: Bool
    /// The cached bindings a synchronous build of this binding reads.
    @usableFromInline let frontier: [Int]

    init(
        declaration: BindingDeclaration,
        producer: any AnyProducer,
        links: [Int?],
        index: Int,
        synchronousPlan: SynchronousPlan.Entry?
    ) {
        self.key = declaration.key
        self.scope = declaration.scope
        self.isEager = declaration.isEager
        self.location = declaration.location
        self.producer = producer
        self.dependencies = declaration.dependencies
        self.links = links
        self.index = index
        self.isSynchronous = synchronousPlan != nil
        self.frontier = synchronousPlan?.frontier ?? []
    }
}
