/// One linked entry of a ``BindingTable``: a key, its scope and its producer, with every declared
/// dependency already turned into a table index.
final class Binding: Sendable {
    let key: BindingKey
    let scope: Scope
    let isEager: Bool
    let location: InjectionError.SourceLocation
    let producer: any AnyProducer
    /// The declared dependency keys, in parameter order.
    let dependencies: [BindingKey]
    /// For each dependency, its index in the table, or `nil` when nothing binds it.
    let links: [Int?]
    /// This binding's index in its table; also the index of its singleton cell.
    let index: Int

    init(declaration: BindingDeclaration, producer: any AnyProducer, links: [Int?], index: Int) {
        self.key = declaration.key
        self.scope = declaration.scope
        self.isEager = declaration.isEager
        self.location = declaration.location
        self.producer = producer
        self.dependencies = declaration.dependencies
        self.links = links
        self.index = index
    }
}
