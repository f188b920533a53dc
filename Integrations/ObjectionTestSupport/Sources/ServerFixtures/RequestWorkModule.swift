import Objection

/// The request graph the HTTP integrations' tests share: the request's id, a value of the scope;
/// a ``RequestWork`` per request, labelled with that id; and an ``UncommittableWork``.
///
/// ```swift
/// let injector = try await InjectorActor(modules: [RequestWorkModule(ledger: ledger), UserModule()])
/// ```
public struct RequestWorkModule: Module {
    let ledger: ScopeLedger

    /// A module whose units of work report to `ledger`.
    public init(ledger: ScopeLedger) { self.ledger = ledger }

    /// Binds `RequestIdentifier` (supplied by the scope), `RequestWork` and `UncommittableWork`
    /// (both scoped).
    public func configure(_ binder: Binder) {
        binder.bind(RequestIdentifier.self).suppliedByScope()
        binder.bind(RequestWork.self)
            .to { [ledger] r in
                let id = try await r.get(RequestIdentifier.self)
                return RequestWork(serial: ledger.nextSerial(), label: id.value, ledger: ledger)
            }
            .inScope(.scoped)
        binder.bind(UncommittableWork.self).to { _ in UncommittableWork() }.inScope(.scoped)
    }
}
