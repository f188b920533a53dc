/// What an ``ObservedConstruction`` builds: a binding's key and scope, made once with the binding
/// and shared by every construction of it.
final class ObservedSubject: Sendable {
    let key: BindingKey
    let scope: Scope

    init(key: BindingKey, scope: Scope) {
        self.key = key
        self.scope = scope
    }
}
