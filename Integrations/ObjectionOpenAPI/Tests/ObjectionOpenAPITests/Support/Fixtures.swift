import HTTPTypes
import Objection
import ObjectionOpenAPI
import ServerFixtures

/// The tests' graph: the unit of work reads the operation the middleware binds.
struct RequestModule: Module {
    let ledger: ScopeLedger

    func configure(_ binder: Binder) {
        binder.bind(OpenAPIOperation.self).suppliedByScope()
        binder.bind(HTTPRequest.self).suppliedByScope()
        binder.bind(RequestWork.self)
            .to { [ledger] r in
                RequestWork(
                    serial: ledger.nextSerial(), label: try await r.get(OpenAPIOperation.self).id, ledger: ledger)
            }
            .inScope(.scoped)
        binder.bind(SealedVault.self).to { _ in throw VaultSealedError() }
        binder.bind(UncommittableWork.self).to { _ in UncommittableWork() }.inScope(.scoped)
    }
}
