/// How the creation-time checks find the binding of a key: the table's lookup, and for an
/// unbound ``Injectable`` type its own declaration, so that just-in-time types belong to the
/// declared graph (missing keys, cycles, captive dependencies) like module bindings do.
///
/// Each just-in-time declaration is made once per check and kept in the order it was reached.
final class GraphLookup {
    let table: BindingTable
    /// The just-in-time bindings the check reached, in order.
    private(set) var justInTime: [Binding] = []
    private var justInTimeByKey: [BindingKey: Binding] = [:]

    init(table: BindingTable) {
        self.table = table
    }

    /// The binding an injector over ``table`` resolves `key` with, if the check can see it.
    func binding(for key: BindingKey) -> Binding? {
        if let bound = table.binding(for: key) { return bound }
        if let made = justInTimeByKey[key] { return made }
        guard key.name == nil, let injectable = key.type as? any Injectable.Type,
            let made = try? JustInTimeBindings.declaration(of: injectable)
        else { return nil }
        justInTimeByKey[key] = made
        justInTime.append(made)
        return made
    }

    /// Whether `binding` is a just-in-time declaration this lookup made.
    func isJustInTime(_ binding: Binding) -> Bool {
        justInTimeByKey[binding.key] === binding
    }
}
