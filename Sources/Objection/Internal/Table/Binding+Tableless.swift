/// Bindings that no table holds: an ad-hoc build's (``AdHocBuild``) and a ``Lazy`` handle's.
/// They are stepped like any other, and linked to no table, so their dependencies are looked up
/// by key in the injector that resolves them.
extension Binding {
    /// The identity of the table a binding no table holds belongs to: none (tables count from 1).
    static var tableless: Int { -1 }

    /// A binding no table holds, made from `declaration`.
    convenience init(tableless declaration: BindingDeclaration, producer: any AnyRecipe) {
        self.init(
            declaration: declaration,
            producer: producer,
            links: Array(repeating: nil, count: declaration.dependencies.count),
            index: 0,
            tableID: Self.tableless,
            synchronousPlan: nil
        )
    }

    /// The binding of one ``Lazy`` handle's shared resolution: keyed `handleKey` (`Lazy<T>`), in
    /// its own cell (``Scope/handle``), built by `resolve`.
    ///
    /// Unlike a declared binding, its producer is a `Recipe<T>` under a `Lazy<T>` key, so
    /// ``producer(as:)`` must never be asked for it: only its handle steps it, with `resolve`
    /// itself (`ResolutionDriver.resolve(_:producer:below:)`).
    static func handle<T: Sendable>(_ handleKey: BindingKey, resolving resolve: Recipe<T>) -> Binding {
        var declaration = BindingDeclaration(
            key: handleKey, location: InjectionError.SourceLocation(fileID: #fileID, line: #line))
        declaration.producer = resolve
        declaration.scope = .handle
        return Binding(tableless: declaration, producer: resolve)
    }
}
