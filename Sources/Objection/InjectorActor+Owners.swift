/// The injector of the hierarchy that owns a binding: the one that built its table.
extension InjectorActor {
    /// The injector that declares `binding`, which owns its singleton and builds it. A binding no
    /// injector of the hierarchy declares is a just-in-time binding, owned by the root; one that no
    /// table holds (a ``Lazy`` handle's, an ad-hoc build's) belongs to the injector resolving it.
    nonisolated func owner(of binding: Binding) -> InjectorActor {
        injector(owningTable: binding.tableID) ?? (binding.tableID == Binding.tableless ? self : root)
    }

    /// This injector or the ancestor that built the table `id`, if any. Deep in a long chain of
    /// children, found through the memos of the injectors on the way (``ChainMemo``).
    nonisolated func injector(owningTable id: Int) -> InjectorActor? {
        var injector = self
        while !(injector.ownsTable && injector.table.id == id) {
            if injector.ownedMemo != nil {
                return ChainMemo.find(id, from: injector, parent: { $0.parent }, memo: { $0.ownedMemo }) {
                    $0.ownsTable && $0.table.id == id ? Ancestor(injector: $0) : nil
                }?.injector
            }
            guard let parent = injector.parent else { return nil }
            injector = parent
        }
        return injector
    }

    /// The injectors found above this one by the table they own, kept in this injector's own
    /// table when it is deep enough in its chain (`BindingTable.ownersFoundAbove`): a table
    /// that an injector built is that injector's alone. Not a stored property of the injector: one
    /// more made every `get` of a graph of closure providers allocate once more (the allocation
    /// thresholds, `TransientGraph.8Objects.ClosureProviders` 13 -> 14).
    nonisolated var ownedMemo: ChainMemo<Int, Ancestor>? { ownsTable ? table.ownersFoundAbove : nil }

    /// An injector found above another, as that one's memo keeps it: unowned, since the chain
    /// between them keeps it alive, and a memo must not release a chain of ancestors recursively
    /// (see ``ChainLink``).
    struct Ancestor: Sendable {
        unowned let injector: InjectorActor
    }
}
