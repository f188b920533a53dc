/// The bindings a root injector made on demand for ``Injectable`` types, one per type.
final class JustInTimeBindings: Sendable {
    private let bindings = Lock<[ObjectIdentifier: Binding]>([:])

    init() {}

    /// Every binding made so far.
    var all: [Binding] { bindings.withLock { Array($0.values) } }

    /// The binding for `type`, made from its declaration on first use.
    ///
    /// The declaration runs outside the lock; if two tasks make one at once, the first stored
    /// wins, so its singleton cell stays the only one.
    func binding<T: Injectable>(for type: T.Type) throws -> Binding {
        let id = ObjectIdentifier(type)
        if let existing = bindings.withLock({ $0[id] }) { return existing }
        let made = try Self.declaration(of: type)
        return bindings.withLock { bindings in
            if let existing = bindings[id] { return existing }
            bindings[id] = made
            return made
        }
    }
}

extension JustInTimeBindings {
    /// A new binding made from `type`'s declaration, linked on its own: its dependencies are
    /// looked up by key in whichever injector resolves it, and checked as part of the graph that
    /// reaches it (``GraphLookup``), not here.
    static func declaration<T: Injectable>(of type: T.Type) throws(InjectionError) -> Binding {
        let table = try BindingTable.build(
            modules: [JustInTimeModule<T>()],
            checksCaptives: false,
            validatesGraph: false
        )
        guard let made = table.binding(for: BindingKey(type)) else {
            throw .missingBinding(BindingKey(type), requestedBy: nil)
        }
        return made
    }
}

/// The module of one ``Injectable`` type's declaration.
struct JustInTimeModule<T: Injectable>: Module {
    func configure(_ binder: Binder) {
        T.injection.declare(on: binder)
    }
}
