import Objection

/// A module built from a closure.
struct ClosureModule: Module {
    let body: @Sendable (Binder) -> Void

    init(_ body: @escaping @Sendable (Binder) -> Void) { self.body = body }

    func configure(_ binder: Binder) { body(binder) }
}
